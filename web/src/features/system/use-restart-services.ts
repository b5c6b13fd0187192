/**
 * Restart All on /system: the services' start/stop/restart calls belong to the monitoring area
 * (system-live), which defines them. Until they are merged this hook reports them unavailable and
 * the button stays disabled with that reason; the integrator connects `restartAll` to their call.
 */
export function useRestartServices(): {
  available: boolean;
  reason: string;
  restartAll: (() => Promise<void>) | null;
} {
  return {
    available: false,
    reason: 'Service control is not connected in this build yet.',
    restartAll: null,
  };
}
