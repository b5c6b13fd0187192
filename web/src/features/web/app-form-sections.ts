import {
  APP_FORM_DEFAULTS,
  APP_SECTIONS,
  APP_TYPES,
  appFormErrors,
  type AppField,
  type AppFormValues,
  type AppType,
  type WebAppCapabilities,
} from '@mailroom/contract/web';
import { sharedReasons } from './shared-reasons.ts';

export type AppSection = (typeof APP_SECTIONS)[number];

/** The fields of each section of the Add/Edit Web Application modal (spec 3 §2.3), every field once. */
export const APP_SECTION_FIELDS: Record<AppSection, AppField[]> = {
  Basic: ['name', 'domain', 'type', 'version', 'description', 'environment', 'port'],
  Repository: ['repository', 'branch', 'enableAutoDeploy', 'autoDeployBranch'],
  SSL: ['sslEnabled', 'sslCertificate', 'sslPrivateKey'],
  Deployment: [
    'deploymentPath',
    'dependencies',
    'buildCommand',
    'startCommand',
    'stopCommand',
    'restartCommand',
    'enableGracefulShutdown',
    'shutdownTimeout',
  ],
  Monitoring: [
    'enableLogging',
    'logLevel',
    'logPath',
    'enableMonitoring',
    'monitoringEndpoint',
    'enableHealthChecks',
    'healthCheckPath',
    'healthCheckInterval',
    'healthCheckTimeout',
  ],
  Performance: ['enableCaching', 'cacheStrategy', 'cacheExpiry', 'enableCompression', 'compressionLevel'],
  Security: [
    'enableSecurityHeaders',
    'enableRateLimiting',
    'rateLimitRequests',
    'rateLimitWindow',
    'enableAccessControl',
    'allowedIps',
    'blockedIps',
  ],
  Scaling: [
    'enableLoadBalancing',
    'enableScaling',
    'minInstances',
    'maxInstances',
    'cpuLimit',
    'memoryLimit',
  ],
  Maintenance: [
    'enableMaintenanceMode',
    'maintenanceMessage',
    'enableBackup',
    'backupFrequency',
    'backupRetention',
  ],
  'Custom Configuration': ['customEnvironmentVariables', 'customDirectives'],
};

/** The form's fields (those the server's field errors may name). */
export const APP_FORM_FIELDS = Object.keys(APP_FORM_DEFAULTS) as (keyof AppFormValues)[];

export const isValidApp = (v: AppFormValues): boolean => Object.keys(appFormErrors(v)).length === 0;

/**
 * Why fields cannot be used on this server, said once: a reason shared by several fields of a
 * section above the section, the others under their field.
 */
export function appFieldReasons(capabilities: WebAppCapabilities | null): {
  section: Record<AppSection, string[]>;
  perField: Partial<Record<AppField, string>>;
  disabled: (f: AppField) => boolean;
} {
  const reasons = capabilities?.fields ?? {};
  const section = {} as Record<AppSection, string[]>;
  const perField: Partial<Record<AppField, string>> = {};
  for (const s of APP_SECTIONS) {
    const r = sharedReasons(APP_SECTION_FIELDS[s], reasons);
    section[s] = r.section;
    Object.assign(perField, r.perField);
  }
  return { section, perField, disabled: (f) => Boolean(reasons[f]) };
}

/** The Type choices: a type this server does not deploy stays visible, disabled, with why. */
export function appTypeOptions(
  capabilities: WebAppCapabilities | null,
  current: AppType,
): { value: AppType; label: string; disabled: boolean }[] {
  return APP_TYPES.map((t) => {
    const why = capabilities?.unsupportedTypes[t];
    return {
      value: t,
      label: why ? `${t} (not available)` : t,
      disabled: Boolean(why) && t !== current,
    };
  });
}
