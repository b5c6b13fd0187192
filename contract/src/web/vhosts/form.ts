import { z } from 'zod';
import { joinList, splitList } from '../fields.ts';
import type { VhostField } from './labels.ts';
import { VHOST_DEFAULTS, VirtualHostInput, type VirtualHostValues } from './input.ts';
import { type VirtualHost } from './virtual-host.ts';

// ---------- the form (lists as comma-separated text, spec §3.1) ----------

export type VhostFormValues = Omit<
  VirtualHostValues,
  'serverAlias' | 'allowedIps' | 'blockedIps' | 'sslPort'
> & {
  serverAlias: string;
  allowedIps: string;
  blockedIps: string;
  sslPort: number | '';
};

/** Form defaults for Add Virtual Host (spec §9). */
export const VHOST_FORM_DEFAULTS: VhostFormValues = {
  ...VHOST_DEFAULTS,
  domain: '',
  documentRoot: '',
  serverName: '',
  serverAlias: '',
  allowedIps: '',
  blockedIps: '',
};

/** Fills the form from a stored host (edit mode). */
export const vhostToForm = (v: VirtualHost): VhostFormValues => ({
  ...VHOST_FORM_DEFAULTS,
  ...Object.fromEntries(Object.keys(VHOST_FORM_DEFAULTS).map((k) => [k, v[k as keyof VirtualHost]])),
  serverAlias: joinList(v.serverAlias),
  allowedIps: joinList(v.allowedIps),
  blockedIps: joinList(v.blockedIps),
  sslPort: v.sslPort ?? '',
});

/** The request body the form sends (the server validates it with `VirtualHostInput`). */
export const vhostFormToInput = (f: VhostFormValues): VirtualHostInput => ({
  ...f,
  serverAlias: splitList(f.serverAlias),
  allowedIps: splitList(f.allowedIps),
  blockedIps: splitList(f.blockedIps),
  sslPort: f.sslPort === '' ? null : f.sslPort,
});

/**
 * The form's schema (Mantine useForm + zod resolver): form values -> the request body, checked by
 * `VirtualHostInput` with the server's messages (issue paths are the form's field names).
 */
export const VirtualHostFormSchema = z
  .custom<VhostFormValues>((v) => typeof v === 'object' && v !== null)
  .transform((f) => vhostFormToInput(f))
  .pipe(VirtualHostInput);

/** Validates one form field for the screen, with the server's messages (null: fine). */
export function vhostFormErrors(f: VhostFormValues): Partial<Record<VhostField, string>> {
  const r = VirtualHostInput.safeParse(vhostFormToInput(f));
  const out: Partial<Record<VhostField, string>> = {};
  if (r.success) return out;
  for (const issue of r.error.issues) {
    const k = issue.path[0] as VhostField | undefined;
    if (k && !out[k]) out[k] = issue.message;
  }
  return out;
}
