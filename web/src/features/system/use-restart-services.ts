import type { SystemService } from '@mailroom/contract/system-metrics';
import { useRestartAll } from '../../api/system-services.ts';
import { confirmAction } from '../../components/confirm-action.ts';
import { notify } from '../../lib/notifications-store.ts';

/** What Restart All restarts: the running services Mailroom (or systemd for it) controls. */
export function restartable(services: SystemService[]): SystemService[] {
  return services.filter((s) => s.controllable && s.status === 'running');
}

/** The confirmation's words: every service that stops for a moment, and what pauses meanwhile. */
export function restartAllMessage(list: SystemService[]): string {
  const names = list.map((s) => s.name);
  const joined =
    names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0];
  const impacts = list.map((s) => s.impact).filter((x): x is string => Boolean(x));
  return `${joined} will stop and start again, one after the other. ${impacts.join(' ')}`.trim();
}

/** Restart All on /system: asks first (naming what stops), then reports each service's outcome. */
export function useRestartServices(services: SystemService[] | null): {
  available: boolean;
  reason: string;
  restartAll: (() => Promise<void>) | null;
} {
  const mutation = useRestartAll();
  const list = restartable(services ?? []);
  return {
    available: !mutation.isPending && list.length > 0,
    reason: mutation.isPending
      ? 'Restarting the services…'
      : 'No running service here is run by Mailroom, so there is nothing it can restart.',
    restartAll: async () => {
      const ok = await confirmAction({
        title: 'Restart all services?',
        message: restartAllMessage(list),
        confirmLabel: 'Restart All',
        danger: true,
      });
      if (!ok) return;
      try {
        const { results } = await mutation.mutateAsync();
        const failed = results.filter((r) => !r.ok);
        if (failed.length)
          notify({
            type: 'error',
            title: `Could not restart ${failed.length} of ${results.length} services`,
            message: failed.map((r) => r.message).join(' '),
            key: 'services.restart-all',
          });
        else
          notify({
            type: 'success',
            title: 'Services restarted',
            message: `${results.map((r) => r.id).join(', ')} restarted.`,
            key: 'services.restart-all',
          });
      } catch (err) {
        notify({
          type: 'error',
          title: 'Restart All failed',
          message: err instanceof Error ? err.message : String(err),
          key: 'services.restart-all',
        });
      }
    },
  };
}
