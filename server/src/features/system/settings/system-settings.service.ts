import {
  isTimezone,
  type SystemSetting,
  type SystemSettingsAnswer,
  type SystemSettingsForm,
} from '@mailroom/contract/system-admin';
import { fieldMessages } from '@mailroom/contract/messages';
import type { MetricThresholds } from '@mailroom/contract/system-metrics';
import { isEmailAddress } from '@mailroom/contract/validators';
import type { Kysely } from 'kysely';
import { auditedTransaction } from '../../../apply/audit-scope.ts';
import type { Database } from '../../../db/schema.ts';
import { storedSetting, storedSettings, upsertSetting } from './system-setting.repository.ts';
import { AppError, fieldError } from '../../../http/errors.ts';
import { ERROR_CODES } from '@mailroom/contract/errors';

type Db = Kysely<Database>;

interface SettingDef extends Omit<SystemSetting, 'value' | 'modified' | 'defaultValue'> {
  defaultValue: string;
  /** Answers an error message, or null when `v` is acceptable. */
  check(v: string): string | null;
}

const int = (label: string, min: number, max: number) => (v: string) =>
  /^\d{1,9}$/.test(v) && Number(v) >= min && Number(v) <= max
    ? null
    : `${label} must be a whole number from ${min} to ${max}`;
const oneOf = (label: string, values: string[]) => (v: string) =>
  values.includes(v) ? null : `${label} must be one of ${values.join(', ')}`;
const opts = (values: [string, string][]) => values.map(([value, label]) => ({ value, label }));

/** Every setting, its default and its rule. The modal edits the first four. */
export const SETTING_DEFS: SettingDef[] = [
  {
    id: 'systemName',
    category: 'General',
    name: 'System Name',
    type: 'string',
    required: true,
    description: 'The name shown in the console and in alert messages.',
    defaultValue: 'Mailroom',
    check: (v) =>
      v.trim() === ''
        ? fieldMessages.required('System Name')
        : v.length > 100
          ? 'System Name must be at most 100 characters'
          : null,
  },
  {
    id: 'adminEmail',
    category: 'General',
    name: 'Admin Email',
    type: 'email',
    required: true,
    description: 'Where the server’s own notices go.',
    defaultValue: 'admin@localhost.localdomain',
    check: (v) =>
      v.trim() === ''
        ? fieldMessages.required('Admin Email')
        : isEmailAddress(v)
          ? null
          : fieldMessages.email,
  },
  {
    id: 'timezone',
    category: 'General',
    name: 'Timezone',
    type: 'select',
    required: true,
    description: 'Time zone for schedules (backups) and dates in messages.',
    defaultValue: 'UTC',
    options: opts([
      ['UTC', 'UTC'],
      ['Europe/London', 'Europe/London'],
      ['Europe/Berlin', 'Europe/Berlin'],
      ['America/New_York', 'America/New_York'],
      ['America/Los_Angeles', 'America/Los_Angeles'],
      ['Asia/Tokyo', 'Asia/Tokyo'],
      ['Australia/Sydney', 'Australia/Sydney'],
    ]),
    check: (v) =>
      v.trim() === ''
        ? fieldMessages.required('Timezone')
        : isTimezone(v)
          ? null
          : 'Please choose a valid timezone',
  },
  {
    id: 'maintenanceMode',
    category: 'General',
    name: 'Maintenance Mode',
    type: 'select',
    required: true,
    description: 'When on, the API refuses every change (reads keep working) until it is turned off.',
    defaultValue: 'off',
    options: opts([
      ['off', 'Off'],
      ['on', 'On'],
    ]),
    check: oneOf('Maintenance Mode', ['on', 'off']),
  },
  {
    id: 'cpuWarning',
    category: 'Network',
    name: 'CPU warning (%)',
    type: 'string',
    required: true,
    description: 'CPU usage that raises a warning alert.',
    defaultValue: '80',
    check: int('CPU warning', 1, 100),
  },
  {
    id: 'cpuCritical',
    category: 'Network',
    name: 'CPU critical (%)',
    type: 'string',
    required: true,
    description: 'CPU usage that raises a critical alert.',
    defaultValue: '95',
    check: int('CPU critical', 1, 100),
  },
  {
    id: 'memoryWarning',
    category: 'Storage',
    name: 'Memory warning (%)',
    type: 'string',
    required: true,
    description: 'Memory usage that raises a warning alert.',
    defaultValue: '85',
    check: int('Memory warning', 1, 100),
  },
  {
    id: 'memoryCritical',
    category: 'Storage',
    name: 'Memory critical (%)',
    type: 'string',
    required: true,
    description: 'Memory usage that raises a critical alert.',
    defaultValue: '95',
    check: int('Memory critical', 1, 100),
  },
  {
    id: 'diskWarning',
    category: 'Storage',
    name: 'Disk warning (%)',
    type: 'string',
    required: true,
    description: 'Disk usage that raises a warning alert.',
    defaultValue: '85',
    check: int('Disk warning', 1, 100),
  },
  {
    id: 'diskCritical',
    category: 'Storage',
    name: 'Disk critical (%)',
    type: 'string',
    required: true,
    description: 'Disk usage that raises a critical alert.',
    defaultValue: '95',
    check: int('Disk critical', 1, 100),
  },
  {
    id: 'certificateDays',
    category: 'Security',
    name: 'Certificate expiry warning (days)',
    type: 'string',
    required: true,
    description: 'A certificate that expires within this many days raises an alert.',
    defaultValue: '14',
    check: int('Certificate expiry warning', 1, 365),
  },
  {
    id: 'failedLogins',
    category: 'Security',
    name: 'Failed sign-ins per hour',
    type: 'string',
    required: true,
    description: 'More failed sign-ins than this in the last hour raise an alert.',
    defaultValue: '20',
    check: int('Failed sign-ins per hour', 1, 100000),
  },
  {
    id: 'mailQueueSize',
    category: 'Network',
    name: 'Mail queue alert size',
    type: 'string',
    required: true,
    description: 'More messages than this waiting in the mail queue raise an alert.',
    defaultValue: '100',
    check: int('Mail queue alert size', 1, 1000000),
  },
  {
    id: 'backupFrequency',
    category: 'Storage',
    name: 'Backup schedule',
    type: 'select',
    required: true,
    description:
      'Automatic backups: a full one weekly (Sunday) and incremental ones on the other days when daily.',
    defaultValue: 'off',
    options: opts([
      ['off', 'Off'],
      ['daily', 'Daily'],
      ['weekly', 'Weekly'],
    ]),
    check: oneOf('Backup schedule', ['off', 'daily', 'weekly']),
  },
  {
    id: 'backupHour',
    category: 'Storage',
    name: 'Backup hour',
    type: 'string',
    required: true,
    description: 'Hour of the day (in the system time zone) scheduled backups start.',
    defaultValue: '3',
    check: int('Backup hour', 0, 23),
  },
  {
    id: 'backupRetentionDays',
    category: 'Storage',
    name: 'Backup retention (days)',
    type: 'string',
    required: true,
    description:
      'Backups older than this are deleted (a full backup stays while a kept incremental needs it).',
    defaultValue: '30',
    check: int('Backup retention', 1, 3650),
  },
];

const DEFS = new Map(SETTING_DEFS.map((d) => [d.id, d]));

export type SettingValuesMap = Record<string, string>;

export async function readSettingValues(db: Db): Promise<SettingValuesMap> {
  const stored = await storedSettings(db);
  return Object.fromEntries(SETTING_DEFS.map((d) => [d.id, stored.get(d.id) ?? d.defaultValue]));
}

export function settingNumber(values: SettingValuesMap, id: string): number {
  return Number(values[id] ?? DEFS.get(id)?.defaultValue);
}

/**
 * The one set of CPU, memory and disk thresholds (percent): the alert engine raises from them and
 * every metric card, gauge and the dashboard colour by them (sent with the metrics and the status).
 */
export function alertThresholds(values: SettingValuesMap): MetricThresholds {
  const pair = (w: string, c: string) => ({
    warning: settingNumber(values, w),
    critical: settingNumber(values, c),
  });
  return {
    cpu: pair('cpuWarning', 'cpuCritical'),
    memory: pair('memoryWarning', 'memoryCritical'),
    disk: pair('diskWarning', 'diskCritical'),
  };
}

export function toAnswer(values: SettingValuesMap): SystemSettingsAnswer {
  return {
    form: {
      systemName: values.systemName!,
      adminEmail: values.adminEmail!,
      timezone: values.timezone!,
      maintenanceMode: values.maintenanceMode === 'on',
    },
    settings: SETTING_DEFS.map((def) => ({
      id: def.id,
      category: def.category,
      name: def.name,
      type: def.type,
      description: def.description,
      required: def.required,
      defaultValue: def.defaultValue,
      ...(def.options ? { options: def.options } : {}),
      value: values[def.id]!,
      modified: values[def.id] !== def.defaultValue,
    })),
  };
}

/** Checks every value first (all problems named), then writes them in one audited transaction. */
export async function saveSettingValues(db: Db, changes: SettingValuesMap): Promise<SettingValuesMap> {
  const problems: { field: string; message: string }[] = [];
  for (const [id, value] of Object.entries(changes)) {
    const def = DEFS.get(id);
    if (!def) problems.push({ field: id, message: `Unknown setting ${id}` });
    else {
      const msg = def.check(value);
      if (msg) problems.push({ field: id, message: msg });
    }
  }
  const merged = { ...(await readSettingValues(db)), ...changes };
  for (const [w, c, label] of [
    ['cpuWarning', 'cpuCritical', 'CPU'],
    ['memoryWarning', 'memoryCritical', 'Memory'],
    ['diskWarning', 'diskCritical', 'Disk'],
  ] as const)
    if (!problems.length && Number(merged[w]) > Number(merged[c]))
      problems.push({ field: w, message: `${label} warning must not be above ${label} critical` });
  if (problems.length) throw new AppError(400, ERROR_CODES.VALIDATION, problems[0]!.message, problems);
  const before = await readSettingValues(db);
  const now = Date.now();
  await auditedTransaction(
    db,
    async (trx) => {
      for (const [name, value] of Object.entries(changes)) {
        const def = DEFS.get(name)!;
        const v = def.type === 'string' || def.type === 'email' ? value.trim() : value;
        await upsertSetting(trx, name, v, now);
      }
    },
    () => ({
      before: Object.fromEntries(Object.keys(changes).map((k) => [k, before[k]])),
      after: changes,
    }),
  );
  maintenanceCache = null;
  return readSettingValues(db);
}

export function formToValues(form: SystemSettingsForm): SettingValuesMap {
  return {
    systemName: form.systemName,
    adminEmail: form.adminEmail,
    timezone: form.timezone,
    maintenanceMode: form.maintenanceMode ? 'on' : 'off',
  };
}

export async function resetAllSettings(db: Db): Promise<SettingValuesMap> {
  return saveSettingValues(db, Object.fromEntries(SETTING_DEFS.map((d) => [d.id, d.defaultValue])));
}

export { fieldError };

// Maintenance mode is read on every state-changing call: cached briefly (other processes' changes
// are seen within MAINTENANCE_CACHE_MS; this process's own at once).
const MAINTENANCE_CACHE_MS = 2000;
let maintenanceCache: { db: Db; on: boolean; at: number } | null = null;

export async function maintenanceOn(db: Db): Promise<boolean> {
  const now = Date.now();
  if (maintenanceCache && maintenanceCache.db === db && now - maintenanceCache.at < MAINTENANCE_CACHE_MS)
    return maintenanceCache.on;
  const on = (await storedSetting(db, 'maintenanceMode')) === 'on';
  maintenanceCache = { db, on, at: now };
  return on;
}
