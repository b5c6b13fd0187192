import { type TableSort, sortParam } from '../../components/data-table/data-table.tsx';
import { type PagePosition, pagePosition, pageQuery } from '../../lib/cursor-pages.ts';
import type { Zone } from '@mailroom/contract/dns';
import { Button, Card, Group, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch, IconX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { useIsFullAdmin } from '../../api/use-full-admin.ts';
import { ZoneCreateForm } from './components/zone-create-form.tsx';
import { ZoneDetailsModal } from './components/zone-details-modal.tsx';
import { ZoneEditModal } from './components/zone-edit-modal.tsx';
import { ZoneFileModal } from './components/zone-file-modal.tsx';
import { ZonesTable } from './components/zones-table.tsx';
import { errorMessage } from '../../api/client.ts';
import { useDeleteZoneFlow } from './use-delete-zone-flow.ts';
import { useDismissableError } from './use-dismissable-error.ts';
import { useZone } from './use-zone.ts';
import { useZones } from './use-zones.ts';

export const ZONES_PAGE_SIZE = 25;
const SEARCH_DEBOUNCE_MS = 300;

export default function ZonesPage() {
  const { domain: routeDomain } = useParams();
  const navigate = useNavigate();
  const [showCreate, setShowCreate] = useState(false);
  // Adding and removing zones are an administrator's (the routes answer 403 to a domain admin).
  const isAdmin = useIsFullAdmin();
  const [search, setSearch] = useState(routeDomain ?? '');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [pos, setPos] = useState<PagePosition>({ page: 1 });
  const page = pos.page;
  const [sort, setSort] = useState<TableSort>({ id: 'created', desc: true });
  const [viewing, setViewing] = useState<string | null>(routeDomain ?? null);
  const [editing, setEditing] = useState<Zone | null>(null);
  const [fileOf, setFileOf] = useState<string | null>(null);

  // /dns/zones/{domain} opens that zone (the dashboard's Manage button) and filters the table to it.
  useEffect(() => {
    if (routeDomain) {
      setSearch(routeDomain);
      setViewing(routeDomain);
    }
  }, [routeDomain]);
  useEffect(() => setPos({ page: 1 }), [debounced, sort]);

  // Paged by the server's cursors (keyset) when stepping, by offset when jumping (as mailboxes).
  const zones = useZones({
    q: debounced || undefined,
    ...pageQuery(pos, ZONES_PAGE_SIZE),
    sort: sortParam(sort),
  });
  const setPage = (to: number) =>
    setPos(pagePosition({ page, next: zones.data?.next, prev: zones.data?.prev }, to));
  const failure = useDismissableError(zones.error);
  const viewed = useZone(viewing);
  const deleteFlow = useDeleteZoneFlow();

  const closeDetails = () => {
    setViewing(null);
    if (routeDomain) void navigate('/dns/zones', { replace: true });
  };

  useEffect(() => {
    if (viewed.error && viewing) {
      notify({ type: 'error', title: 'Failed to load DNS zone', message: errorMessage(viewed.error) });
      setViewing(null);
    }
  }, [viewed.error, viewing]);

  const total = zones.data?.total ?? 0;
  // No count while the list loads: never a 0 before the answer or the previous search's total.
  const counted = zones.data !== undefined && !zones.isPlaceholderData;
  const rows = zones.data?.data ?? [];

  return (
    <>
      <PageHeader
        title="Zone Management"
        breadcrumbs={[
          { label: 'Dashboard', to: '/dashboard' },
          { label: 'DNS Management', to: '/dns' },
          { label: 'Zone Management' },
        ]}
        subtitle="Create, edit and remove the zones this server answers for"
        actions={
          isAdmin && (
            <Button
              leftSection={showCreate ? <IconX size={16} aria-hidden /> : <IconPlus size={16} aria-hidden />}
              onClick={() => setShowCreate((v) => !v)}
            >
              {showCreate ? 'Cancel' : 'Add DNS Zone'}
            </Button>
          )
        }
      />
      {isAdmin && showCreate && <ZoneCreateForm onDone={() => setShowCreate(false)} />}
      <Card withBorder radius="md" padding="md">
        <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
          <Title order={2} size="h4">
            DNS Zones{counted && ` (${total.toLocaleString()})`}
          </Title>
          <TextInput
            placeholder="Search zones by domain..."
            aria-label="Search zones"
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            w={{ base: '100%', sm: 280 }}
          />
        </Group>
        <LoadState
          loading={zones.isPending}
          error={failure.message}
          errorTitle="Failed to load DNS zones"
          loadingLabel="Loading DNS zones..."
          onRetry={() => void zones.refetch()}
          onDismiss={failure.dismiss}
        >
          {rows.length === 0 ? (
            <Text c="dimmed" ta="center" py="xl">
              {debounced ? `No zones found matching "${debounced}"` : 'No DNS zones found'}
            </Text>
          ) : (
            <>
              <ZonesTable
                zones={rows}
                onView={(z) => setViewing(z.domain)}
                onEdit={setEditing}
                onDelete={isAdmin ? (z) => void deleteFlow.run(z) : undefined}
                deleting={deleteFlow.pendingDomain}
                sort={sort}
                onSortChange={setSort}
                pager={
                  counted
                    ? { page, pageSize: ZONES_PAGE_SIZE, total, onPage: setPage, noun: 'zones' }
                    : undefined
                }
              />
            </>
          )}
        </LoadState>
      </Card>
      {viewing && viewed.data && (
        <ZoneDetailsModal
          zone={viewed.data}
          onClose={closeDetails}
          onEdit={() => {
            setEditing(viewed.data);
            closeDetails();
          }}
          onViewFile={() => setFileOf(viewed.data.domain)}
        />
      )}
      {editing && <ZoneEditModal zone={editing} onClose={() => setEditing(null)} />}
      {fileOf && <ZoneFileModal domain={fileOf} onClose={() => setFileOf(null)} />}
    </>
  );
}
