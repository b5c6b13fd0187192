import { z } from 'zod';
import { joinList, splitList } from '../fields.ts';
import type { AppField } from './labels.ts';
import { APP_DEFAULTS, WebApplicationInput, type WebApplicationValues } from './input.ts';
import { type WebApplication } from './application.ts';

// ---------- the form (lists and env as comma-separated text, spec §3.1) ----------

export type AppFormValues = Omit<
  WebApplicationValues,
  'allowedIps' | 'blockedIps' | 'dependencies' | 'customEnvironmentVariables'
> & {
  allowedIps: string;
  blockedIps: string;
  dependencies: string;
  /** key=value, comma-separated. */
  customEnvironmentVariables: string;
};

export const APP_FORM_DEFAULTS: AppFormValues = {
  ...APP_DEFAULTS,
  name: '',
  domain: '',
  version: '',
  deploymentPath: '',
  allowedIps: '',
  blockedIps: '',
  dependencies: '',
  customEnvironmentVariables: '',
};

/** `A=1, B=two` -> { A: '1', B: 'two' } (an item without `=` keeps an empty value). */
export function parseEnvText(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of splitList(text)) {
    const i = item.indexOf('=');
    if (i === -1) out[item] = '';
    else out[item.slice(0, i).trim()] = item.slice(i + 1).trim();
  }
  return out;
}
export const envToText = (env: Record<string, string>): string =>
  Object.entries(env)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');

export const appToForm = (a: WebApplication): AppFormValues => ({
  ...APP_FORM_DEFAULTS,
  ...Object.fromEntries(Object.keys(APP_FORM_DEFAULTS).map((k) => [k, a[k as keyof WebApplication]])),
  allowedIps: joinList(a.allowedIps),
  blockedIps: joinList(a.blockedIps),
  dependencies: joinList(a.dependencies),
  customEnvironmentVariables: envToText(a.customEnvironmentVariables),
});

export const appFormToInput = (f: AppFormValues): WebApplicationInput => ({
  ...f,
  allowedIps: splitList(f.allowedIps),
  blockedIps: splitList(f.blockedIps),
  dependencies: splitList(f.dependencies),
  customEnvironmentVariables: parseEnvText(f.customEnvironmentVariables),
});

export const WebApplicationFormSchema = z
  .custom<AppFormValues>((v) => typeof v === 'object' && v !== null)
  .transform((f) => appFormToInput(f))
  .pipe(WebApplicationInput);

export function appFormErrors(f: AppFormValues): Partial<Record<AppField, string>> {
  const r = WebApplicationInput.safeParse(appFormToInput(f));
  const out: Partial<Record<AppField, string>> = {};
  if (r.success) return out;
  for (const issue of r.error.issues) {
    const k = issue.path[0] as AppField | undefined;
    if (k && !out[k]) out[k] = issue.message;
  }
  return out;
}
