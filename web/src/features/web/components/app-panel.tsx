import { RELEASE_RETENTION, type WebAppRelease, type WebApplicationSummary } from '@mailroom/contract/web';
import {
  Alert,
  Button,
  Drawer,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { IconPlayerPause, IconPlayerPlay, IconRefresh, IconRocket } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { formatAppUptime, formatBytes, lastLines } from '../app-format.ts';
import { invalidateApps } from '../invalidate-web.ts';
import { useApp } from '../use-app.ts';
import { useAppDeployLog } from '../use-app-deploy-log.ts';
import { AppAutoDeploy } from './app-auto-deploy.tsx';
import { formatLastModified, formatWebNumber } from '../web-format.ts';
import { AppMetricsView } from './app-metrics.tsx';
import { AppReleases } from './app-releases.tsx';
import { AppStatusBadge } from './app-status-badge.tsx';
import { DeployLogView } from './deploy-log-view.tsx';

/** While a deploy runs, the application is read again this often (its status, its release). */
const DEPLOYING_REFRESH_MS = 3000;

export interface AppPanelProps {
  /** The application shown (null: closed). */
  name: string | null;
  /** The job whose log is followed (absent: the application's running or latest deploy). */
  jobId: number | undefined;
  onClose: () => void;
  onDeploy: (app: WebApplicationSummary, ref: string) => void;
  onToggle: (app: WebApplicationSummary) => void;
  onRestart: (app: WebApplicationSummary) => void;
  onRollback: (app: WebApplicationSummary, release: WebAppRelease) => void;
  /** An action of this application is under way. */
  pending: { deploy: boolean; toggle: boolean; restart: boolean; rollback: boolean };
}

/** The application's panel: what runs, Deploy with its live log, the releases with Rollback. */
export function AppPanel(props: AppPanelProps) {
  const phone = useMediaQuery('(max-width: 36em)');
  // While it slides out after closing, the dialog keeps its name (an unnamed dialog is an a11y fault).
  const [title, setTitle] = useState(props.name);
  if (props.name !== null && props.name !== title) setTitle(props.name);
  // A dialog opened over the panel (a release's build log) takes Escape for itself.
  const [nested, setNested] = useState(false);
  return (
    <Drawer
      opened={props.name !== null}
      onClose={props.onClose}
      position="right"
      size={phone ? '100%' : 'xl'}
      title={title ?? 'Application'}
      closeButtonProps={{ 'aria-label': 'Close' }}
      closeOnEscape={!nested}
    >
      {props.name !== null && (
        <PanelBody key={props.name} {...props} name={props.name} onNestedDialog={setNested} />
      )}
    </Drawer>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

function PanelBody({
  name,
  jobId,
  onDeploy,
  onToggle,
  onRestart,
  onRollback,
  pending,
  onNestedDialog,
}: AppPanelProps & { name: string; onNestedDialog: (open: boolean) => void }) {
  const qc = useQueryClient();
  const [deploying, setDeploying] = useState(false);
  const app = useApp(name, deploying ? DEPLOYING_REFRESH_MS : false);
  const a = app.data;
  // Follow the job asked for, else the one deploying now, else the latest.
  const followed = jobId ?? a?.deployJobId ?? undefined;
  const { log, error } = useAppDeployLog(a ? name : null, followed);
  const [ref, setRef] = useState('');

  useEffect(() => setDeploying(a?.status === 'deploying'), [a?.status]);
  // The job ended: the status, the release history and the list move.
  useEffect(() => {
    if (log.done && log.jobId !== null) void invalidateApps(qc);
  }, [log.done, log.jobId, qc]);

  if (app.isError)
    return (
      <Alert color="red" variant="light" role="alert" title={`Failed to load ${name}`}>
        {errorMessage(app.error)}
      </Alert>
    );
  if (!a) return <Loader size="sm" aria-label={`Loading ${name}…`} />;

  const active = a.status === 'active';
  const busy = a.status === 'deploying' || pending.deploy || pending.rollback;
  const why = a.status === 'error' ? lastLines(a.statusMessage, 10) : [];
  const logState = log.jobId === null ? (log.done ? 'No deploy yet' : 'Reading…') : (log.state ?? '');

  return (
    <Stack gap="lg">
      <Group gap="sm" wrap="wrap">
        <AppStatusBadge status={a.status} />
        <Text size="sm" c="dimmed">
          {a.type} · {a.domain}
        </Text>
      </Group>
      {why.length > 0 && (
        <Alert color="red" variant="light" title="Last log lines" role="alert">
          <Text size="xs" ff="monospace" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {why.join('\n')}
          </Text>
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
        <Fact label="Version">{a.version}</Fact>
        <Fact label="Commit">{a.currentCommit ? a.currentCommit.slice(0, 10) : '—'}</Fact>
        <Fact label="Last Deployed">{a.lastDeployed ? formatLastModified(a.lastDeployed) : 'Never'}</Fact>
        <Fact label="Uptime">{formatAppUptime(a.uptime)}</Fact>
        <Fact label="Requests (24 h)">{formatWebNumber(a.requests)}</Fact>
        <Fact label="Errors (24 h)">{formatWebNumber(a.errors)}</Fact>
        <Fact label="Port">{a.runningPort ?? '—'}</Fact>
        <Fact label="Process">{a.pid ?? '—'}</Fact>
        <Fact label="Runs as">{a.runAs || 'Mailroom’s own user'}</Fact>
        <Fact label="Disk">{formatBytes(a.diskUsage)}</Fact>
        <Fact label="Deployment Path">{a.deploymentPath}</Fact>
      </SimpleGrid>

      <Stack gap="xs" component="section" aria-labelledby="app-deploy-title">
        <Title order={3} size="h5" id="app-deploy-title">
          Deploy
        </Title>
        <Group gap="xs" align="flex-end" wrap="wrap">
          <TextInput
            label="Branch, tag or commit"
            placeholder={a.branch}
            value={ref}
            onChange={(e) => setRef(e.currentTarget.value)}
            style={{ flex: 1, minWidth: 180 }}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <Button
            leftSection={<IconRocket size={16} aria-hidden />}
            loading={pending.deploy}
            disabled={busy}
            onClick={() => onDeploy(a, ref.trim())}
          >
            Deploy
          </Button>
          <Button
            variant="default"
            color={active ? 'orange' : 'green'}
            leftSection={
              active ? <IconPlayerPause size={16} aria-hidden /> : <IconPlayerPlay size={16} aria-hidden />
            }
            loading={pending.toggle}
            disabled={busy}
            onClick={() => onToggle(a)}
          >
            {active ? 'Stop' : 'Start'}
          </Button>
          {active && (
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} aria-hidden />}
              loading={pending.restart}
              disabled={busy}
              onClick={() => onRestart(a)}
            >
              Restart
            </Button>
          )}
        </Group>
        <Group justify="space-between" gap="xs">
          <Text size="sm" fw={500}>
            Deploy Log{log.jobId !== null ? ` · job ${log.jobId}` : ''}
          </Text>
          <Group gap={6}>
            {!log.done && log.jobId !== null && <Loader size={14} aria-hidden />}
            <Text size="xs" c="dimmed" data-testid="deploy-log-state">
              {logState}
            </Text>
          </Group>
        </Group>
        {error && (
          <Text size="xs" c="red.8" role="status">
            Reading the log failed ({error}); retrying.
          </Text>
        )}
        <DeployLogView
          lines={log.lines}
          empty={
            log.jobId === null && log.done ? 'This application has not been deployed yet.' : 'No lines yet.'
          }
        />
      </Stack>

      <AppAutoDeploy app={a} busy={busy} />
      <Stack gap="xs" component="section" aria-labelledby="app-metrics-title">
        <Title order={3} size="h5" id="app-metrics-title">
          Metrics
        </Title>
        <AppMetricsView name={name} />
      </Stack>

      <Stack gap="xs" component="section" aria-labelledby="app-releases-title">
        <Title order={3} size="h5" id="app-releases-title">
          Releases
        </Title>
        <Text size="xs" c="dimmed">
          The live release and the {RELEASE_RETENTION - 1} before it keep their folders; older ones are
          pruned. Rollback runs a release again with its own environment, switched only once healthy.
        </Text>
        <AppReleases app={a} busy={busy} onRollback={(r) => onRollback(a, r)} onLogOpen={onNestedDialog} />
      </Stack>
    </Stack>
  );
}
