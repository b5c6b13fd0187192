import {
  APP_FORM_DEFAULTS,
  APP_SECTIONS,
  appFormErrors,
  appFormToInput,
  appMessages,
  type AppFormValues,
  type WebAppCapabilities,
} from '@mailroom/contract/web';
import { describe, expect, it } from 'vitest';
import {
  APP_FORM_FIELDS,
  APP_SECTION_FIELDS,
  appFieldReasons,
  appTypeOptions,
  isValidApp,
} from './app-form-sections.ts';

const filled: AppFormValues = {
  ...APP_FORM_DEFAULTS,
  name: 'shop',
  domain: 'shop.example.com',
  version: '1.0.0',
  deploymentPath: '/var/www/apps/shop',
  startCommand: 'node server.js',
};

const caps = (over: Partial<WebAppCapabilities> = {}): WebAppCapabilities => ({
  supportedTypes: ['Node.js', 'Static'],
  unsupportedTypes: { PHP: 'PHP applications are not deployed by Mailroom yet' },
  fields: {},
  allowedRoots: ['/var/www'],
  ownUser: { enabled: false, reason: '' },
  supervised: { enabled: true, reason: '' },
  releaseRetention: 5,
  ...over,
});

describe('the Add/Edit Web Application form', () => {
  it('has the spec’s ten sections and puts every field of the form in exactly one', () => {
    expect(Object.keys(APP_SECTION_FIELDS)).toEqual([...APP_SECTIONS]);
    const placed = Object.values(APP_SECTION_FIELDS).flat();
    expect(new Set(placed).size).toBe(placed.length);
    expect([...placed].sort()).toEqual([...APP_FORM_FIELDS].sort());
  });

  it('starts from the spec §9 application defaults', () => {
    expect(APP_FORM_DEFAULTS).toMatchObject({
      environment: 'production',
      branch: 'main',
      port: 3000,
      enableMonitoring: true,
      monitoringEndpoint: '/metrics',
      enableHealthChecks: true,
      healthCheckPath: '/health',
      healthCheckInterval: 30,
      healthCheckTimeout: 10,
      cacheStrategy: 'memory',
      cacheExpiry: 3600,
      enableCompression: true,
      compressionLevel: 6,
      enableSecurityHeaders: true,
      rateLimitRequests: 100,
      rateLimitWindow: 60,
      minInstances: 1,
      maxInstances: 10,
      cpuLimit: '500m',
      memoryLimit: '512Mi',
      backupFrequency: 'weekly',
    });
  });

  it('validates with the contract’s schema: the empty form names its required fields (Save stays off)', () => {
    const errors = appFormErrors(APP_FORM_DEFAULTS);
    expect(errors.name).toBe('Name is required');
    expect(errors.domain).toBe('Domain is required');
    expect(errors.version).toBe('Version is required');
    expect(errors.deploymentPath).toBe('Deployment Path is required');
    expect(errors.startCommand).toBe(appMessages.startCommandRequired);
    expect(isValidApp(APP_FORM_DEFAULTS)).toBe(false);
    expect(isValidApp(filled)).toBe(true);
  });

  it('says which field is wrong in the spec’s words, limits included', () => {
    expect(appFormErrors({ ...filled, domain: 'localhost' }).domain).toBe('Domain format is invalid');
    expect(appFormErrors({ ...filled, compressionLevel: 10 }).compressionLevel).toMatch(
      /^Compression Level must be at most 9$/,
    );
    expect(appFormErrors({ ...filled, healthCheckInterval: 0 }).healthCheckInterval).toMatch(
      /^Health Check Interval must be at least 1$/,
    );
    expect(appFormErrors({ ...filled, branch: 'main;touch /tmp/x' }).branch).toBe('Branch format is invalid');
    expect(appFormErrors({ ...filled, buildCommand: 'npm ci && rm -rf /' }).buildCommand).toBe(
      appMessages.plainCommand('Build Command'),
    );
    // A Static site needs no start command.
    expect(appFormErrors({ ...filled, type: 'Static', startCommand: '' })).toEqual({});
  });

  it('sends lists and the environment as the API wants them', () => {
    const body = appFormToInput({
      ...filled,
      allowedIps: '192.0.2.0/24, 198.51.100.7',
      dependencies: 'express, pg',
      customEnvironmentVariables: 'API_URL=https://api.example.com, MODE=fast',
    });
    expect(body.allowedIps).toEqual(['192.0.2.0/24', '198.51.100.7']);
    expect(body.dependencies).toEqual(['express', 'pg']);
    expect(body.customEnvironmentVariables).toEqual({ API_URL: 'https://api.example.com', MODE: 'fast' });
    expect(
      appFormErrors({ ...filled, customEnvironmentVariables: 'PORT=1' }).customEnvironmentVariables,
    ).toBe('Environment Variables: PORT is set by Mailroom');
  });
});

describe('what the server cannot do', () => {
  it('disables each field it names, its reason once per section when shared', () => {
    const r = appFieldReasons(
      caps({
        fields: {
          enableScaling: 'Scaling needs systemd',
          minInstances: 'Scaling needs systemd',
          enableCaching: 'No cache module',
        },
      }),
    );
    expect(r.section.Scaling).toEqual(['Scaling needs systemd']);
    expect(r.perField.enableScaling).toBeUndefined();
    expect(r.perField.enableCaching).toBe('No cache module');
    expect(r.disabled('minInstances')).toBe(true);
    expect(r.disabled('enableCaching')).toBe(true);
    expect(r.disabled('name')).toBe(false);
  });

  it('keeps unsupported types in the list, disabled and marked, unless already chosen', () => {
    const opts = appTypeOptions(caps(), 'Node.js');
    expect(opts.find((o) => o.value === 'PHP')).toEqual({
      value: 'PHP',
      label: 'PHP (not available)',
      disabled: true,
    });
    expect(opts.find((o) => o.value === 'Node.js')?.disabled).toBe(false);
    expect(appTypeOptions(caps(), 'PHP').find((o) => o.value === 'PHP')?.disabled).toBe(false);
    // Capabilities not read yet: nothing is disabled on a guess.
    expect(appTypeOptions(null, 'Node.js').every((o) => !o.disabled)).toBe(true);
  });
});
