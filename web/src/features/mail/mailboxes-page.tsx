import type { Mailbox, RemoveMailboxResponse } from '@mailroom/contract/mail';
import { Alert, Button, Card, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch, IconX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { confirmAction } from '../../components/confirm-action.ts';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { type PagePosition, pagePosition, pageQuery } from '../../lib/cursor-pages.ts';
import { notify } from '../../lib/notifications-store.ts';
import { ActionErrorAlert } from './components/action-error-alert.tsx';
import { ListPager } from './components/list-pager.tsx';
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
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [pos, setPos] = useState<PagePosition>({ page: 1 });
  const page = pos.page;
  const [editing, setEditing] = useState<Mailbox | null>(null);
  const [removed, setRemoved] = useState<string | null>(null);
  const [deleteError, setDeleteError] = useState<{ email: string; message: string } | null>(null);
  const [loadErrorDismissed, setLoadErrorDismissed] = useState(false);

  const query = { q: q || undefined, ...pageQuery(pos, MAILBOX_PAGE_SIZE), sort: 'email' as const };
  const list = useMailboxes(query);
  const setPage = (to: number) =>
    setPos(pagePosition({ page, next: list.data?.next, prev: list.data?.prev }, to));
  const settings = useMailSettings();
  const remove = useRemoveMailbox();

  useEffect(() => setPos({ page: 1 }), [q]);
  const total = list.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / MAILBOX_PAGE_SIZE));
  // After deleting the last row of the last page, step back to a page that exists.
  useEffect(() => {
    if (list.data && page > lastPage) setPos({ page: lastPage });
  }, [list.data, page, lastPage]);

  const runDelete = (email: string) => {
    setDeleteError(null);
    setRemoved(null);
    remove.mutate(email, {
      onSuccess: (res) => {
        const message = removedMessage(email, res);
        setRemoved(message);
        notify({ type: 'success', title: 'Mailbox deleted', message });
      },
      onError: (err) => {
        const message = errorMessage(err);
        setDeleteError({ email, message });
        notify({ type: 'error', title: 'Failed to delete mailbox', message });
      },
    });
  };

  const askDelete = async (m: Mailbox) => {
    const ok = await confirmAction({
      title: 'Delete Mailbox',
      message: `Are you sure you want to delete the mailbox ${m.email}?`,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (ok) runDelete(m.email);
  };

  const loadError = list.isError && !loadErrorDismissed ? errorMessage(list.error) : null;
  const rows = list.data?.data ?? [];

  return (
    <>
      <PageHeader
        title="Mailboxes"
        breadcrumbs={BREADCRUMBS}
        subtitle="Mailboxes Postfix delivers to and Dovecot signs in"
        actions={
          <Button
            leftSection={adding ? <IconX size={16} aria-hidden /> : <IconPlus size={16} aria-hidden />}
            onClick={() => setAdding((v) => !v)}
            aria-expanded={adding}
          >
            Add Mailbox
          </Button>
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
        <Card withBorder radius="md" padding="md">
          <Group justify="space-between" mb="sm" wrap="wrap" gap="sm">
            <TextInput
              aria-label="Search mailboxes"
              placeholder="Search mailboxes"
              leftSection={<IconSearch size={16} aria-hidden />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              style={{ flex: 1, minWidth: 200, maxWidth: 420 }}
            />
            {list.isFetching && !list.isPending && <Loader size="sm" aria-label="Refreshing mailboxes" />}
          </Group>
          <LoadState
            loading={list.isPending && !loadErrorDismissed}
            error={loadError}
            errorTitle="Failed to load mailboxes"
            loadingLabel="Loading mailboxes…"
            onRetry={() => {
              setLoadErrorDismissed(false);
              void list.refetch();
            }}
            onDismiss={() => setLoadErrorDismissed(true)}
          >
            {list.data && (
              <>
                <MailboxTable
                  mailboxes={rows}
                  onEdit={setEditing}
                  onDelete={(m) => void askDelete(m)}
                  deleting={remove.isPending ? (remove.variables ?? null) : null}
                  emptyText="No mailboxes found"
                />
                <ListPager
                  page={page}
                  pageSize={MAILBOX_PAGE_SIZE}
                  total={total}
                  onPage={setPage}
                  noun="mailboxes"
                />
              </>
            )}
          </LoadState>
        </Card>
      </Stack>
      <MailboxEditModal mailbox={editing} onClose={() => setEditing(null)} onChanged={setEditing} />
    </>
  );
}
