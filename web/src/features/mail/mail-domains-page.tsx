import { type MailDomain, AddDomainRequest } from '@mailroom/contract/mail';
import { ActionIcon, Badge, Button, Card, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../api/client.ts';
import { confirmAction } from '../../components/confirm-action.ts';
import { DataTable } from '../../components/data-table/data-table.tsx';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { useUrlSearch } from '../../lib/use-url-search.ts';
import { useIsFullAdmin } from '../../api/use-full-admin.ts';
import { zodValidate } from '../../lib/zod-form.ts';
import { useAddMailDomain, useMailDomains, useRemoveMailDomain } from './use-mail-domains.ts';

const BREADCRUMBS = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'Mail Management', to: '/mail' },
  { label: 'Domains' },
];

type Values = { domain: string };

function AddDomainForm() {
  const add = useAddMailDomain();
  const form = useForm<Values>({
    initialValues: { domain: '' },
    validate: zodValidate<Values>(AddDomainRequest),
  });
  const submit = (v: Values) => {
    const domain = v.domain.trim().toLowerCase();
    add.mutate(domain, {
      onSuccess: () => {
        notify({ type: 'success', title: 'Domain added', message: `${domain} is now a mail domain.` });
        form.reset();
      },
      onError: (err) => {
        if (err instanceof ApiError) form.setErrors(err.fieldErrors);
        notify({ type: 'error', title: 'Failed to add domain', message: errorMessage(err) });
      },
    });
  };
  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Group align="flex-start" gap="xs" wrap="wrap">
        <TextInput
          label="Domain"
          placeholder="example.com"
          autoComplete="off"
          style={{ flex: 1, minWidth: 200, maxWidth: 360 }}
          {...form.getInputProps('domain')}
        />
        <Button
          type="submit"
          mt={25}
          loading={add.isPending}
          leftSection={<IconPlus size={16} aria-hidden />}
        >
          Add Domain
        </Button>
      </Group>
    </form>
  );
}

/** Mail → Domains: the domains mail is hosted for, made deliberately, removed when empty. */
export default function MailDomainsPage() {
  const list = useMailDomains();
  // Adding and removing domains are an administrator's (the routes answer 403 to a domain admin).
  const isAdmin = useIsFullAdmin();
  // The whole list is here: the box (and ?q= from a search hit) filters it in place.
  const { search, setSearch, q } = useUrlSearch(0);
  const needle = q.toLowerCase();
  const shown = useMemo(
    () => (needle ? (list.data ?? []).filter((d) => d.domain.includes(needle)) : list.data),
    [list.data, needle],
  );
  const remove = useRemoveMailDomain();
  const askRemove = async (d: MailDomain) => {
    const ok = await confirmAction({
      title: 'Remove Domain',
      message: `Remove the mail domain ${d.domain}? Its DKIM key and mail DNS records go with it.`,
      confirmLabel: 'Remove',
      danger: true,
    });
    if (!ok) return;
    remove.mutate(d.domain, {
      onSuccess: () =>
        notify({ type: 'success', title: 'Domain removed', message: `${d.domain} was removed.` }),
      onError: (err) =>
        notify({ type: 'error', title: 'Failed to remove domain', message: errorMessage(err) }),
    });
  };
  const columns = useMemo<ColumnDef<MailDomain, unknown>[]>(
    () => [
      {
        id: 'domain',
        header: 'Domain',
        meta: { title: true },
        cell: ({ row: { original: d } }) => (
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
              {d.domain}
            </Text>
            {d.catchAll && (
              <Badge size="sm" variant="light" color="grape">
                catch-all
              </Badge>
            )}
          </Group>
        ),
      },
      {
        id: 'mailboxes',
        header: 'Mailboxes',
        cell: ({ row: { original: d } }) => (
          <Text component={Link} to="/mail/mailboxes" size="sm" c="inherit">
            {d.mailboxes.toLocaleString()}
          </Text>
        ),
      },
      { id: 'aliases', header: 'Aliases', cell: ({ row }) => row.original.aliases.toLocaleString() },
      {
        id: 'dkim',
        header: 'DKIM',
        cell: ({ row: { original: d } }) =>
          d.dkim ? (
            <Badge size="sm" color="#1b5e20" variant="filled">
              key ready
            </Badge>
          ) : (
            <Badge size="sm" color="gray" variant="light">
              no key yet
            </Badge>
          ),
      },
      {
        id: 'dns',
        header: 'DNS',
        cell: ({ row: { original: d } }) =>
          d.dnsZone ? (
            <Text size="sm">
              published in zone{' '}
              <Text component={Link} to="/dns/zones" size="sm" fw={500}>
                {d.dnsZone}
              </Text>
            </Text>
          ) : (
            <Text size="sm" c="dimmed">
              no zone here: publish the records at your DNS provider
            </Text>
          ),
      },
      ...(!isAdmin
        ? []
        : [
            {
              id: 'actions',
              header: 'Actions',
              meta: { actions: true, align: 'right' },
              cell: ({ row: { original: d } }: { row: { original: MailDomain } }) => {
                const system = 2; // postmaster@ and abuse@ never keep a domain alive
                const empty = d.mailboxes === 0 && d.aliases <= system;
                return (
                  <Group justify="flex-end" gap={4} wrap="nowrap">
                    <Tooltip label={empty ? 'Remove' : 'Only an empty domain can be removed'}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Remove ${d.domain}`}
                        disabled={!empty}
                        loading={remove.isPending && remove.variables === d.domain}
                        onClick={() => void askRemove(d)}
                      >
                        <IconTrash size={18} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                );
              },
            } satisfies ColumnDef<MailDomain, unknown>,
          ]),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [remove.isPending, remove.variables, isAdmin],
  );
  return (
    <>
      <PageHeader
        title="Domains"
        breadcrumbs={BREADCRUMBS}
        subtitle="Domains this server hosts mail for. A mailbox or alias needs its domain here first."
      />
      <Stack gap="md">
        {isAdmin && (
          <Card withBorder radius="md" padding="md" component="section" aria-label="Add a mail domain">
            <AddDomainForm />
          </Card>
        )}
        <Card withBorder radius="md" padding="md">
          <TextInput
            aria-label="Search domains"
            placeholder="Search domains"
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            mb="sm"
            maw={420}
          />
          <LoadState
            loading={list.isPending}
            error={list.isError ? errorMessage(list.error) : null}
            errorTitle="Failed to load domains"
            loadingLabel="Loading domains…"
            onRetry={() => void list.refetch()}
          >
            {shown && (
              <DataTable
                label="Mail domains"
                data={shown}
                columns={columns}
                getRowId={(d) => d.domain}
                emptyText={
                  q
                    ? `No domain matches "${q}"`
                    : isAdmin
                      ? 'No mail domain yet: add one above.'
                      : 'No mail domain is assigned to your account.'
                }
                minWidth={760}
              />
            )}
          </LoadState>
        </Card>
      </Stack>
    </>
  );
}
