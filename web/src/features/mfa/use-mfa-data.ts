import { mfaRoutes } from '@mailroom/contract/mfa';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { mfaKeys } from './mfa-keys.ts';

export function useMfaDashboard() {
  return useQueries({
    queries: [
      { queryKey: mfaKeys.dashboard(), queryFn: () => apiCall(mfaRoutes.dashboard) },
      { queryKey: mfaKeys.status(), queryFn: () => apiCall(mfaRoutes.status) },
    ],
    combine: ([dashboard, status]) => ({
      dashboard: dashboard.data,
      status: status.data,
      loading: dashboard.isFetching || status.isFetching,
      pending: dashboard.isPending || status.isPending,
      error: dashboard.error ?? status.error,
      refetch: () => Promise.all([dashboard.refetch(), status.refetch()]),
    }),
  });
}

export function useMfaManagement() {
  return useQueries({
    queries: [
      { queryKey: mfaKeys.devices(), queryFn: () => apiCall(mfaRoutes.devices) },
      { queryKey: mfaKeys.policies(), queryFn: () => apiCall(mfaRoutes.policies) },
    ],
    // The users list pages on the server on its own (useUserList).
    combine: ([devices, policies]) => ({
      devices: devices.data,
      policies: policies.data,
      loading: devices.isFetching || policies.isFetching,
      pending: devices.isPending || policies.isPending,
      error: devices.error ?? policies.error,
      refetch: () => Promise.all([devices.refetch(), policies.refetch()]),
    }),
  });
}

export function useMfaRecovery() {
  return useQuery({ queryKey: mfaKeys.recovery(), queryFn: () => apiCall(mfaRoutes.recovery) });
}

/** After any MFA change every MFA list is stale. */
export function useInvalidateMfa() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: mfaKeys.all });
}
