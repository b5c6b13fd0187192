import { useRestartAll } from '../../api/system-services.ts';
import { notify } from '../../lib/notifications-store.ts';

/** Restart All on /system: the monitoring area's Restart All call (systemctl or the supervisor). */
export function useRestartServices(): {
  available: boolean;
  reason: string;
  restartAll: (() => Promise<void>) | null;
} {
  const mutation = useRestartAll();
  return {
    available: !mutation.isPending,
    reason: 'Restarting the services…',
    restartAll: async () => {
      try {
        await mutation.mutateAsync();
        notify({
          type: 'success',
          title: 'Services restarted',
          message: 'Every service was asked to restart.',
        });
      } catch (err) {
        notify({
          type: 'error',
          title: 'Restart All failed',
          message: err instanceof Error ? err.message : String(err),
        });
      }
    },
  };
}
