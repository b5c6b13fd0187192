import {
  APP_CACHE_STRATEGIES,
  APP_ENVIRONMENTS,
  APP_LOG_LEVELS,
  APP_NAME_HINT,
  APP_PROCESS_TYPES,
  APP_TYPE_NOTES,
  BACKUP_FREQUENCIES,
  appLabels as L,
  isPhpAppType,
  phpAppHelp,
  type AppFormValues,
  type WebAppCapabilities,
} from '@mailroom/contract/web';
import { Alert, List, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import danger from '../../../components/danger-text.module.css';
import { appTypeOptions } from '../app-form-sections.ts';
import { appFieldControls } from './app-field-controls.tsx';
import type { WatchedAppValues } from './app-watched-values.ts';

export { type WatchedAppValues, watchedAppValues } from './app-watched-values.ts';

type Form = UseFormReturnType<AppFormValues>;

const BUILD_PLACEHOLDER: Partial<Record<AppFormValues['type'], string>> = {
  Python: 'python3 -m pip install --target vendor -r requirements.txt',
  Angular: 'npx ng build',
};

const ENVIRONMENT_LABELS = { development: 'Development', staging: 'Staging', production: 'Production' };
const LOG_LEVEL_LABELS = { debug: 'Debug', info: 'Info', warn: 'Warn', error: 'Error' };
const CACHE_LABELS = { memory: 'Memory', redis: 'Redis', file: 'File', database: 'Database' };
const FREQUENCY_LABELS = { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly', never: 'Never' };

export interface AppFieldsProps {
  form: Form;
  values: WatchedAppValues;
  capabilities: WebAppCapabilities | null;
  /** Edit: the name is the application's Unix user and folder, it does not change. */
  editing: boolean;
}

/**
 * Every field of a web application (spec 3 §3.1) in the modal's sections (§2.3). A field this
 * server cannot honour yet is disabled with the server's reason under it (or above its section).
 */
export function AppFields({ form, values, capabilities, editing }: AppFieldsProps) {
  const { note, off, toggle, text, number, select, options, section } = appFieldControls(form, capabilities);

  const typeWhy = capabilities?.unsupportedTypes[values.type];
  const php = phpAppHelp(values.type);
  const roots = capabilities?.allowedRoots ?? [];

  return (
    <Stack gap="md">
      {section(
        'Basic',
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {text('name', {
            required: true,
            placeholder: 'shop',
            help: editing ? 'The application’s Unix user and folder: it does not change' : APP_NAME_HINT,
            off: editing,
          })}
          {text('domain', { required: true, placeholder: 'shop.example.com' })}
          {select('type', appTypeOptions(capabilities, values.type), {
            help: typeWhy ? (
              <Text span size="xs" className={danger.danger}>
                {typeWhy}
              </Text>
            ) : (
              APP_TYPE_NOTES[values.type]
            ),
          })}
          {text('version', { required: true, placeholder: '1.0.0' })}
          {select('environment', options(APP_ENVIRONMENTS, ENVIRONMENT_LABELS))}
          {number('port', {
            max: 65535,
            help: isPhpAppType(values.type)
              ? `Not used: Apache runs the ${values.type} files itself`
              : undefined,
          })}
          <div style={{ gridColumn: '1 / -1' }}>{text('description')}</div>
          {php ? (
            <Alert
              style={{ gridColumn: '1 / -1' }}
              variant="light"
              color="blue"
              title={`What a ${values.type} application needs`}
              data-testid="php-type-help"
            >
              <Stack gap={6}>
                <Text size="sm">
                  <b>You provide:</b> {php.needs}
                </Text>
                {php.kept.length > 0 ? (
                  <div>
                    <Text size="sm">
                      <b>Kept across releases</b> in <code>&lt;Deployment Path&gt;/data</code>, linked into
                      each release:
                    </Text>
                    <List size="sm" spacing={2}>
                      {php.kept.map((k) => (
                        <List.Item key={k}>
                          <code>{k}</code>
                        </List.Item>
                      ))}
                    </List>
                  </div>
                ) : (
                  <Text size="sm">
                    Nothing is kept across releases: each release is the repository as it is.
                  </Text>
                )}
                <Text size="sm">{php.health}</Text>
              </Stack>
            </Alert>
          ) : null}
        </SimpleGrid>,
      )}
      {section(
        'Repository',
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {text('repository', {
              placeholder: 'https://git.example.com/shop.git',
              help: 'https://, ssh://, git://, user@host:path or a local path',
              mono: true,
            })}
            {text('branch', { required: true, help: 'Branch, tag or commit deployed', mono: true })}
          </SimpleGrid>
          {toggle(
            'enableAutoDeploy',
            'A push to the branch below deploys it: signed webhook (secret in the app’s panel) and a read of the remote every minute',
          )}
          {text('autoDeployBranch', { off: !values.enableAutoDeploy, mono: true })}
        </Stack>,
      )}
      {section(
        'SSL',
        <Stack gap="sm">
          {toggle('sslEnabled', 'Served over HTTPS by the application’s virtual host')}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {text('sslCertificate', {
              placeholder: '/etc/ssl/certs/shop.example.com.pem',
              off: !values.sslEnabled,
              mono: true,
            })}
            {text('sslPrivateKey', {
              placeholder: '/etc/ssl/private/shop.example.com.key',
              off: !values.sslEnabled,
              mono: true,
            })}
          </SimpleGrid>
        </Stack>,
      )}
      {section(
        'Deployment',
        <Stack gap="sm">
          {text('deploymentPath', {
            required: true,
            placeholder: '/var/www/apps/shop',
            help: roots.length > 0 ? `Inside ${roots.join(' or ')}; one folder per release` : undefined,
            mono: true,
          })}
          {text('dependencies', {
            help: 'Comma-separated; installed by the build',
            placeholder: 'express, pg',
          })}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {text('buildCommand', {
              placeholder: BUILD_PLACEHOLDER[values.type] ?? 'npm ci',
              help:
                values.type === 'Angular'
                  ? 'Must write the site to dist/; run as an argument list, never through a shell'
                  : 'Run as an argument list, never through a shell',
              mono: true,
            })}
            {text('startCommand', {
              placeholder: values.type === 'Python' ? 'python3 app.py' : 'node server.js',
              help: APP_PROCESS_TYPES.includes(values.type)
                ? 'PORT is set to the port Mailroom gives the release'
                : `Not used: Apache serves the ${values.type} files itself`,
              required: APP_PROCESS_TYPES.includes(values.type),
              mono: true,
            })}
            {text('stopCommand', { help: 'Empty: a signal', mono: true })}
            {text('restartCommand', {
              help: 'Run in the release folder as the app’s user, then the health check must pass again. Empty: a new process is started, then the old one stopped',
              mono: true,
            })}
          </SimpleGrid>
          {toggle('enableGracefulShutdown', 'The old release drains before it is stopped')}
          {number('shutdownTimeout', { min: 0, help: 'Seconds', off: !values.enableGracefulShutdown })}
        </Stack>,
      )}
      {section(
        'Monitoring',
        <Stack gap="sm">
          {toggle(
            'enableLogging',
            'The app’s output to its Log Path, rotated by Mailroom at 100 MB or daily (10 files kept); shown in System Logs',
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {select('logLevel', options(APP_LOG_LEVELS, LOG_LEVEL_LABELS), {
              off: !values.enableLogging,
              help: 'Given to the app as LOG_LEVEL',
            })}
            {text('logPath', {
              off: !values.enableLogging,
              mono: true,
              placeholder: '<Deployment Path>/logs/<name>.log',
            })}
          </SimpleGrid>
          {toggle('enableMonitoring', 'Figures read from the endpoint when it speaks Prometheus text')}
          {text('monitoringEndpoint', { off: !values.enableMonitoring, mono: true })}
          {toggle('enableHealthChecks', 'A release serves only once this path answers 2xx')}
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            {text('healthCheckPath', { off: !values.enableHealthChecks, mono: true })}
            {number('healthCheckInterval', { max: 3600, help: 'Seconds', off: !values.enableHealthChecks })}
            {number('healthCheckTimeout', { max: 600, help: 'Seconds', off: !values.enableHealthChecks })}
          </SimpleGrid>
        </Stack>,
      )}
      {section(
        'Performance',
        <Stack gap="sm">
          {toggle('enableCaching')}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {select('cacheStrategy', options(APP_CACHE_STRATEGIES, CACHE_LABELS), {
              off: !values.enableCaching,
            })}
            {number('cacheExpiry', { help: 'Seconds', off: !values.enableCaching })}
          </SimpleGrid>
          {toggle('enableCompression')}
          {number('compressionLevel', { max: 9, help: '1 to 9', off: !values.enableCompression })}
        </Stack>,
      )}
      {section(
        'Security',
        <Stack gap="sm">
          {toggle('enableSecurityHeaders', 'The set chosen in Server Configuration')}
          {toggle('enableRateLimiting')}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {number('rateLimitRequests', { off: !values.enableRateLimiting })}
            {number('rateLimitWindow', { help: 'Seconds', off: !values.enableRateLimiting })}
          </SimpleGrid>
          {toggle('enableAccessControl')}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {text('allowedIps', {
              help: 'Comma-separated addresses or ranges; empty: everyone',
              placeholder: '192.0.2.0/24',
              off: !values.enableAccessControl,
            })}
            {text('blockedIps', {
              help: 'Comma-separated addresses or ranges',
              placeholder: '198.51.100.7',
              off: !values.enableAccessControl,
            })}
          </SimpleGrid>
        </Stack>,
      )}
      {section(
        'Scaling',
        <Stack gap="sm">
          {toggle('enableLoadBalancing', 'Apache balances over every running instance')}
          {toggle('enableScaling')}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {number('minInstances', { max: 100, off: !values.enableScaling })}
            {number('maxInstances', { max: 100, off: !values.enableScaling })}
            {text('cpuLimit', { required: true, placeholder: '500m', help: '500m is half a core' })}
            {text('memoryLimit', { required: true, placeholder: '512Mi', help: 'Ki, Mi or Gi' })}
          </SimpleGrid>
        </Stack>,
      )}
      {section(
        'Maintenance',
        <Stack gap="sm">
          {toggle('enableMaintenanceMode', 'Visitors get the maintenance page')}
          {text('maintenanceMessage', { off: !values.enableMaintenanceMode })}
          {toggle(
            'enableBackup',
            'Its data folder (Deployment Path/data) joins the system backups and gets backups of its own',
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {select('backupFrequency', options(BACKUP_FREQUENCIES, FREQUENCY_LABELS), {
              off: !values.enableBackup,
            })}
            {number('backupRetention', { off: !values.enableBackup })}
          </SimpleGrid>
        </Stack>,
      )}
      {section(
        'Custom Configuration',
        <Stack gap="sm">
          {text('customEnvironmentVariables', {
            help: 'Comma-separated KEY=value; stored encrypted, given to each release',
            placeholder: 'API_URL=https://api.example.com, LOG_FORMAT=json',
            mono: true,
          })}
          <Textarea
            label={L.customDirectives}
            description={note(
              'customDirectives',
              'Apache directives inside the application’s virtual host, checked by Apache first',
            )}
            disabled={off('customDirectives')}
            autosize
            minRows={3}
            maxRows={12}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            key={form.key('customDirectives')}
            {...form.getInputProps('customDirectives')}
          />
        </Stack>,
      )}
    </Stack>
  );
}
