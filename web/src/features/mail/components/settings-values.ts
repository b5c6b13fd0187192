import type { MailSettings } from '@mailroom/contract/mail';

/** The settings form: numbers may be '' while the user edits them. */
export type SettingsValues = Omit<
  MailSettings,
  'mxRecords' | 'defaultQuota' | 'maxQuota' | 'maxMessageSize' | 'maxRecipients' | 'deliveryTimeout'
> & {
  mxRecords: { priority: number | string; host: string }[];
  defaultQuota: number | string;
  maxQuota: number | string;
  maxMessageSize: number | string;
  maxRecipients: number | string;
  deliveryTimeout: number | string;
};

export function toFormValues(s: MailSettings): SettingsValues {
  return { ...s, mxRecords: s.mxRecords.map((r) => ({ ...r })) };
}
