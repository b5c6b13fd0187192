import { bulkRoutes } from '@mailroom/contract/bulk';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { bulkKeys } from './bulk-keys.ts';

/** The operations with this administrator's saved enable and configuration choices. */
export function useBulkOperations() {
  return useQuery({
    queryKey: bulkKeys.operations(),
    queryFn: async () => (await apiCall(bulkRoutes.operations)).operations,
  });
}
