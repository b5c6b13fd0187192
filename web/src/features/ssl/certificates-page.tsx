import { CERTIFICATE_STATUSES, ISSUER_FILTERS, sslMessages } from '@mailroom/contract/ssl';
import { Alert, Button, Card, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { IconDownload, IconRefresh, IconSearch, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { followJob } from '../../api/follow-job.ts';
import { type TableSort, sortParam } from '../../components/data-table/data-table.tsx';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { BulkOperationButton } from '../../components/bulk-operation-button.tsx';
import { type PagePosition, pagePosition } from '../../lib/cursor-pages.ts';
import { notify } from '../../lib/notifications-store.ts';
import { CertificateDetailsModal } from './components/certificate-details-modal.tsx';
import { CertificateTable } from './components/certificate-table.tsx';
import { ServedHealthCard } from './components/served-health-card.tsx';
import { TlsTrafficCard } from './components/tls-traffic-card.tsx';
import { UploadForm } from './components/upload-form.tsx';
import { sslKeys } from './ssl-keys.ts';
import { type CertificateFilter, PAGE_SIZE, useCertificates } from './use-certificates.ts';
import { useCertificateActions } from './use-certificate-actions.ts';
import { useExportCertificates } from './use-export-certificates.ts';
import { useRenewExpiring } from './use-renew-expiring.ts';

const EMPTY: CertificateFilter = { q: '', status: '', issuer: '' };

export default function CertificatesPage() {
  const qc = useQueryClient();
  const renew = useRenewExpiring();
  const exportCsv = useExportCertificates();
  const [filter, setFilter] = useState<CertificateFilter>(EMPTY);
  const [pos, setPos] = useState<PagePosition>({ page: 1 });
  const page = pos.page;
  const [uploading, setUploading] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState<'export' | 'renew' | null>(null);
  // The server's default order: the certificate that expires first on top.
  const [sort, setSort] = useState<TableSort>({ id: 'validTo', desc: false });
  const list = useCertificates(filter, pos, sortParam(sort));
  const changeSort = (s: TableSort) => {
    setSort(s);
    setPos({ page: 1 });
  };
  const setPage = (to: number) =>
    setPos(pagePosition({ page, next: list.data?.next, prev: list.data?.prev }, to));
  const actions = useCertificateActions();
  const change = (f: Partial<CertificateFilter>) => {
    setFilter((old) => ({ ...old, ...f }));
    setPos({ page: 1 });
  };
  const refresh = () => qc.invalidateQueries({ queryKey: sslKeys.all });

  const renewExpiring = async () => {
    setBusy('renew');
    setNotice(null);
    try {
      const r = await renew.mutateAsync();
      if (r.jobId === null) {
        setNotice(r.message);
        return;
      }
      const job = await followJob(r.jobId, () => undefined);
      notify({
        type: job.state === 'succeeded' && !job.errors.length ? 'success' : 'error',
        title: 'Renew Expiring Certificates',
        message: job.message ?? job.state,
      });
      await refresh();
    } catch (err) {
      notify({ type: 'error', title: 'Renewal failed', message: errorMessage(err) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <PageHeader
        title="Certificate Management"
        breadcrumbs={[
          { label: 'Dashboard', to: '/dashboard' },
          { label: 'SSL Management', to: '/ssl' },
          { label: 'Certificate Management' },
        ]}
        subtitle="Upload, renew, download and remove certificates"
        actions={
          <>
            <BulkOperationButton
              operation="ssl.certificate.renew"
              filter={{ q: filter.q.trim() || undefined, status: filter.status || undefined }}
              label="Bulk renew…"
            />
            <Button
              leftSection={<IconUpload size={16} aria-hidden />}
              onClick={() => setUploading((u) => !u)}
            >
              Upload Certificate
            </Button>
          </>
        }
      />
      <Stack gap="md">
        {uploading && (
          <UploadForm
            onCancel={() => setUploading(false)}
            onDone={() => {
              setUploading(false);
              void refresh();
            }}
          />
        )}
        <Card withBorder padding="md" radius="md">
          <Group align="flex-end" wrap="wrap" gap="sm">
            <TextInput
              label="Search"
              placeholder="Domain, issuer or status"
              leftSection={<IconSearch size={16} aria-hidden />}
              value={filter.q}
              onChange={(e) => change({ q: e.currentTarget.value })}
              style={{ flex: '1 1 220px' }}
            />
            <Select
              label="Status"
              placeholder="All statuses"
              data={CERTIFICATE_STATUSES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) }))}
              value={filter.status || null}
              onChange={(v) => change({ status: (v ?? '') as CertificateFilter['status'] })}
              clearable
            />
            <Select
              label="Issuer"
              placeholder="All issuers"
              data={[...ISSUER_FILTERS]}
              value={filter.issuer || null}
              onChange={(v) => change({ issuer: v ?? '' })}
              clearable
            />
            <Button variant="default" onClick={() => change(EMPTY)}>
              Clear Filters
            </Button>
          </Group>
        </Card>
        <Card withBorder padding="md" radius="md">
          <Title order={2} size="h4" mb="sm">
            Bulk Actions
          </Title>
          {notice && (
            <Alert
              color="yellow"
              mb="sm"
              withCloseButton
              closeButtonLabel="Dismiss"
              onClose={() => setNotice(null)}
            >
              {notice}
            </Alert>
          )}
          <Group gap="xs">
            <Button
              variant="light"
              leftSection={<IconDownload size={16} aria-hidden />}
              loading={busy === 'export'}
              onClick={() => {
                setBusy('export');
                exportCsv
                  .mutateAsync()
                  .catch((err: unknown) =>
                    notify({ type: 'error', title: 'Export failed', message: errorMessage(err) }),
                  )
                  .finally(() => setBusy(null));
              }}
            >
              Export Certificates
            </Button>
            <Button variant="light" loading={busy === 'renew'} onClick={() => void renewExpiring()}>
              Renew Expiring Certificates
            </Button>
            <BulkOperationButton
              operation="ssl.certificate.renew"
              filter={{ q: filter.q.trim() || undefined, status: filter.status || undefined }}
              label="Renew as a bulk operation…"
              size="sm"
            />
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} aria-hidden />}
              onClick={() => void refresh()}
              loading={list.isFetching}
            >
              Refresh
            </Button>
          </Group>
        </Card>
        <LoadState
          loading={list.isPending}
          error={list.error && !dismissed ? errorMessage(list.error) : null}
          errorTitle={sslMessages.loadCertificates}
          loadingLabel="Loading SSL certificates..."
          onRetry={() => {
            setDismissed(false);
            void list.refetch();
          }}
          onDismiss={() => setDismissed(true)}
        >
          {list.data && (
            <Card withBorder padding="md" radius="md">
              <CertificateTable
                certificates={list.data.data}
                showKeySize
                onView={actions.view}
                onRenew={(c) => actions.renew(c.id, c.domain)}
                onDelete={actions.remove}
                onDownload={actions.download}
                empty={sslMessages.noCertificates}
                sort={sort}
                onSortChange={changeSort}
                pager={
                  // No total while a new filter loads: not the previous filter's count.
                  list.isPlaceholderData
                    ? undefined
                    : {
                        page,
                        pageSize: PAGE_SIZE,
                        total: list.data.total,
                        onPage: setPage,
                        noun: 'certificates',
                      }
                }
              />
            </Card>
          )}
        </LoadState>
        <ServedHealthCard />
        <TlsTrafficCard />
      </Stack>
      <CertificateDetailsModal
        id={actions.viewing?.id ?? null}
        domain={actions.viewing?.domain ?? ''}
        onClose={actions.closeView}
        onRenew={(id, domain) => {
          actions.closeView();
          actions.renew(id, domain);
        }}
      />
    </>
  );
}
