import { autoDeployMessages, type WebApplicationSummary } from '@mailroom/contract/web';
import { Alert, Button, Code, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconKey, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { CopyButton } from '../../../components/copy-button.tsx';
import { useAppAutoDeploy } from '../use-app-auto-deploy.ts';
import { useCheckAppRemote } from '../use-check-app-remote.ts';
import { useRotateAppWebhookSecret } from '../use-rotate-app-webhook-secret.ts';
import { formatLastModified } from '../web-format.ts';

/**
 * The panel's Auto Deploy section: the webhook URL to give the Git server, the secret (made or
 * rotated here, shown once), the poll, and what the last check concluded ("Check now" reads the
 * remote at once).
 */
export function AppAutoDeploy({ app, busy }: { app: WebApplicationSummary; busy: boolean }) {
  const info = useAppAutoDeploy(app.name);
  const rotate = useRotateAppWebhookSecret();
  const check = useCheckAppRemote();
  const [shown, setShown] = useState<string | null>(null);
  const d = info.data;
  const url = d ? `${window.location.origin}${d.webhookPath}` : '';

  return (
    <Stack gap="xs" component="section" aria-labelledby="app-autodeploy-title">
      <Title order={3} size="h5" id="app-autodeploy-title">
        Auto Deploy
      </Title>
      {info.isError && (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(info.error)}
        </Alert>
      )}
      {!d && !info.isError && <Loader size="sm" aria-label="Loading auto deploy…" />}
      {d && (
        <>
          <Text size="xs" c="dimmed">
            {d.enabled
              ? `On: a push to ${d.branch} deploys it through the same health-gated job. The Git server's webhook (GitHub, Gitea, Forgejo, Gogs: JSON push events, signed with the secret as X-Hub-Signature-256) starts it at once; without one, Mailroom reads the branch from the remote every ${d.pollSeconds} s.`
              : 'Off: turn on Enable Auto Deploy (Edit → Repository) to deploy pushes to the branch by themselves.'}
          </Text>
          <div>
            <Text size="xs" c="dimmed">
              Webhook URL
            </Text>
            <Group gap={4} wrap="nowrap">
              <Code style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }} data-testid="webhook-url">
                {url}
              </Code>
              <CopyButton value={url} label="Copy the webhook URL" />
            </Group>
          </div>
          <Text size="sm">
            {d.secretSet && d.secretCreatedAt
              ? `Secret set ${formatLastModified(d.secretCreatedAt)}`
              : 'No secret yet: every delivery is refused (401) until one is made.'}
          </Text>
          {shown && (
            <Alert color="yellow" variant="light" title="Webhook secret" role="status">
              <Stack gap={6}>
                <Text size="xs">{autoDeployMessages.secretShownOnce}</Text>
                <Group gap={4} wrap="nowrap">
                  <Code
                    style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}
                    data-testid="webhook-secret"
                  >
                    {shown}
                  </Code>
                  <CopyButton value={shown} label="Copy the secret" />
                </Group>
              </Stack>
            </Alert>
          )}
          {rotate.isError && (
            <Text size="xs" c="red.8" role="alert">
              {errorMessage(rotate.error)}
            </Text>
          )}
          <Group gap="xs" wrap="wrap">
            <Button
              variant="default"
              leftSection={<IconKey size={16} aria-hidden />}
              loading={rotate.isPending}
              onClick={() => rotate.mutate({ name: app.name }, { onSuccess: (r) => setShown(r.secret) })}
            >
              {d.secretSet ? 'Rotate secret' : 'Create secret'}
            </Button>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} aria-hidden />}
              loading={check.isPending}
              disabled={busy || !app.repository}
              onClick={() => check.mutate({ name: app.name })}
            >
              Check now
            </Button>
          </Group>
          {(check.data || check.isError || d.lastCheckedAt) && (
            <Text
              size="xs"
              c={check.isError ? 'red.8' : 'dimmed'}
              role="status"
              data-testid="autodeploy-last"
            >
              {check.isError
                ? errorMessage(check.error)
                : check.data
                  ? check.data.reason
                  : `Last check ${formatLastModified(d.lastCheckedAt!)}: ${d.lastResult}`}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
