import type { Mailbox, RemoveMailboxResponse } from '@mailroom/contract/mail';
import { BulkOperationButton } from '../../components/bulk-operation-button.tsx';
import type { BulkMailboxAction, MailboxListQuery } from '@mailroom/contract/mail';
import { Alert, Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconPlus, IconUpload, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { confirmDelete } from '../../components/confirm-action.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { useListPager, useListPaging } from '../../components/use-list-paging.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useUrlSearch } from '../../lib/use-url-search.ts';
import { useIsFullAdmin } from '../../api/use-full-admin.ts';
import { ActionErrorAlert } from './components/action-error-alert.tsx';
import { type TableSort, sortParam } from '../../components/data-table/data-table.tsx';
import { ListCard } from './components/list-card.tsx';
import { MailboxBulkBar } from './components/mailbox-bulk-bar.tsx';
import { MailboxImportCard } from './components/mailbox-import-card.tsx';
import { useBulkMailboxes } from './use-bulk-mailboxes.ts';
import { useMailDomains } from './use-mail-domains.ts';
import { MailboxCreateForm } from './components/mailbox-create-form.tsx';
import { MailboxEditModal } from './components/mailbox-edit-modal.tsx';
import { MailboxTable } from './components/mailbox-table.tsx';
import { useMailSettings } from './use-mail-settings.ts';
import { useMailboxes } from './use-mailboxes.ts';
import { useRemoveMailbox } from './use-remove-mailbox.ts';

export const MAILBOX_PAGE_SIZE = 50;
export const SEARCH_DEBOUNCE_MS = 300;

const BREADCRUMBS = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'Mail Management', to: '/mail' },
  { label: 'Mailboxes' },
];

function removedMessage(email: string, res: RemoveMailboxResponse): string {
  return res.movedTo
    ? `Mailbox ${email} was deleted. Its mail folder was moved to ${res.movedTo}.`
    : `Mailbox ${email} was deleted. It had no mail folder yet.`;
}

export default function MailboxesPage() {
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [domain, setDomain] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [sort, setSort] = useState<TableSort>({ id: 'email', desc: false });
  // Bulk create (mail/users/import) and the settings' default quota are an administrator's.
  const isAdmin = useIsFullAdmin();
  const domains = useMailDomains();
  const bulk = useBulkMailboxes();
  const { search, setSearch, q } = useUrlSearch(SEARCH_DEBOUNCE_MS);
  const [editing, setEditing] = useState<Mailbox | null>(null);
  const [removed, setRemoved] = useState<string | null>(null);
  const [deleteError, setDeleteError] = useState<{ email: string; message: string } | null>(null);
  // A new search, filter or order starts at page 1 with nothing selected.
  const paging = useListPaging(MAILBOX_PAGE_SIZE, [q, domain, status, sort]);
  const { selection, setSelection, clearSelection } = paging;

  const query: MailboxListQuery = {
    q: q || undefined,
    ...paging.query,
    sort: sortParam(sort) as MailboxListQuery['sort'],
    ...(domain ? { domain } : {}),
    ...(status ? { status: status as 'active' | 'suspended' } : {}),
  };
  const list = useMailboxes(query);
  const pager = useListPager(paging, list, 'mailboxes');
  const settings = useMailSettings(isAdmin);
  const remove = useRemoveMailbox();

  const runBulk = async (action: BulkMailboxAction) => {
    const emails = [...selection];
    if (action === 'delete') {
      const ok = await confirmDelete(
        'Delete Mailboxes',
        `Are you sure you want to delete ${emails.length} ${emails.length === 1 ? 'mailbox' : 'mailboxes'}? Their mail folders are moved aside.`,
      );
      if (!ok) return;
    }
    const done = { suspend: 'suspended', resume: 'resumed', delete: 'deleted' }[action];
    bulk.mutate(
      { action, emails },
      {
        onSuccess: (res) => {
          clearSelection();
          notify({
            type: 'success',
            title: `Mailboxes ${done}`,
            message: `${res.changed} mailboxes ${done}.`,
          });
        },
        onError: (err) =>
          notify({ type: 'error', title: `Failed to ${action} mailboxes`, message: errorMessage(err) }),
      },
    );
  };
  const runDelete = (email: string) => {
    setDeleteError(null);
    setRemoved(null);
    remove.mutate(email, {
      // Each outcome is said once, in its alert above the list (where the folder went; Try Again).
      onSuccess: (res) => setRemoved(removedMessage(email, res)),
      onError: (err) => setDeleteError({ email, message: errorMessage(err) }),
    });
  };

  const askDelete = async (m: Mailbox) => {
    const ok = await confirmDelete(
      'Delete Mailbox',
      `Are you sure you want to delete the mailbox ${m.email}?`,
    );
    if (ok) runDelete(m.email);
  };

  const rows = list.data?.data ?? [];

  return (
    <>
      <PageHeader
        title="Mailboxes"
        breadcrumbs={BREADCRUMBS}
        subtitle="Mailboxes Postfix delivers to and Dovecot signs in"
        actions={
          <Group gap="xs">
            {isAdmin && (
              <Button
                variant="default"
                leftSection={<IconUpload size={16} aria-hidden />}
                onClick={() => setImporting((v) => !v)}
                aria-expanded={importing}
              >
                Bulk Create
              </Button>
            )}
            <Button
              leftSection={adding ? <IconX size={16} aria-hidden /> : <IconPlus size={16} aria-hidden />}
              onClick={() => setAdding((v) => !v)}
              aria-expanded={adding}
            >
              Add Mailbox
            </Button>
          </Group>
        }
      />
      <Stack gap="md">
        {adding && (
          <MailboxCreateForm
            key={settings.data?.version ?? 'none'}
            defaultQuota={settings.data?.settings.defaultQuota ?? ''}
            onClose={() => setAdding(false)}
          />
        )}
        {isAdmin && importing && <MailboxImportCard onClose={() => setImporting(false)} />}
        {deleteError && (
          <ActionErrorAlert
            title="Failed to delete mailbox"
            message={deleteError.message}
            onRetry={() => runDelete(deleteError.email)}
            retrying={remove.isPending}
            onDismiss={() => setDeleteError(null)}
          />
        )}
        {removed && (
          <Alert
            color="green"
            variant="light"
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setRemoved(null)}
            role="status"
          >
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {removed}
            </Text>
          </Alert>
        )}
        <ListCard
          searchLabel="Search mailboxes"
          searchPlaceholder="Search mailboxes"
          search={search}
          onSearch={setSearch}
          filters={
            <>
              <Select
                aria-label="Filter by domain"
                placeholder="All domains"
                data={(domains.data ?? []).map((d) => d.domain)}
                value={domain}
                onChange={setDomain}
                clearable
                searchable
                w={200}
              />
              <Select
                aria-label="Filter by status"
                placeholder="Any status"
                data={[
                  { value: 'active', label: 'Active' },
                  { value: 'suspended', label: 'Suspended' },
                ]}
                value={status}
                onChange={setStatus}
                clearable
                w={150}
              />
            </>
          }
          list={list}
          refreshingLabel="Refreshing mailboxes"
          errorTitle="Failed to load mailboxes"
          loadingLabel="Loading mailboxes…"
        >
          <MailboxBulkBar
            count={selection.size}
            pending={bulk.isPending ? (bulk.variables?.action ?? null) : null}
            onAction={(a) => void runBulk(a)}
            onClear={clearSelection}
            extra={
              <BulkOperationButton
                operation="mail.mailbox.delete"
                keys={[...selection]}
                filter={{ q, ...(domain ? { domain } : {}), ...(status ? { status } : {}) }}
              />
            }
          />
          <MailboxTable
            mailboxes={rows}
            onEdit={setEditing}
            onDelete={(m) => void askDelete(m)}
            deleting={remove.isPending ? (remove.variables ?? null) : null}
            emptyText="No mailboxes found"
            sort={sort}
            onSortChange={setSort}
            selection={selection}
            onSelectionChange={setSelection}
            pager={pager}
          />
        </ListCard>
      </Stack>
      <MailboxEditModal mailbox={editing} onClose={() => setEditing(null)} onChanged={setEditing} />
    </>
  );
}
