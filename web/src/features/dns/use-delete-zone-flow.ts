import { dnsMessages, type Zone } from '@mailroom/contract/dns';
import { ApiError } from '../../api/client.ts';
import { confirmAction, confirmDelete } from '../../components/confirm-action.ts';
import { notify } from '../../lib/notifications-store.ts';
import { reportFailure } from './report-failure.ts';
import { useRemoveZone } from './use-remove-zone.ts';

function confirmWithRecords(message: string): Promise<boolean> {
  return confirmAction({
    title: 'Zone still has records',
    message,
    confirmLabel: 'Delete zone and records',
    danger: true,
  });
}

/**
 * Delete with confirmation; a zone that still has records needs a second, explicit confirmation
 * (also when records arrived after the table was loaded: the server then answers 409).
 */
export function useDeleteZoneFlow() {
  const remove = useRemoveZone();

  const run = async (zone: Zone): Promise<boolean> => {
    const ok = await confirmDelete(
      'Delete DNS Zone',
      `Delete the zone ${zone.domain}? The name server stops answering for it.`,
    );
    if (!ok) return false;
    let withRecords = false;
    if (zone.records > 0) {
      withRecords = await confirmWithRecords(dnsMessages.zoneHasRecords(zone.domain, zone.records));
      if (!withRecords) return false;
    }
    try {
      await remove.mutateAsync({ domain: zone.domain, withRecords });
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 409 && !withRecords)) {
        reportFailure('Failed to delete zone', err);
        return false;
      }
      if (!(await confirmWithRecords(err.message))) return false;
      try {
        await remove.mutateAsync({ domain: zone.domain, withRecords: true });
      } catch (again) {
        reportFailure('Failed to delete zone', again);
        return false;
      }
    }
    notify({ type: 'success', title: 'Zone deleted', message: `Zone ${zone.domain} was removed.` });
    return true;
  };

  return { run, pendingDomain: remove.isPending ? (remove.variables?.domain ?? null) : null };
}
