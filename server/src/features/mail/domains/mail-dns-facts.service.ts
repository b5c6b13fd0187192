import type { MailDnsFacts } from '@mailroom/contract/mail-dns';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { currentDkimKeys } from './dkim-key.repository.ts';
import { domainNames } from './mail-domain.repository.ts';
import { dkimTxt } from './dkim.renderer.ts';
import { readMailSettings } from '../settings/mail-settings.service.ts';

/** Per mail domain, what DNS should publish: MX from the settings, SPF/DMARC switches, the DKIM key. */
export async function listMailDnsFacts(db: Kysely<Database>): Promise<MailDnsFacts[]> {
  const [{ settings }, domains, keys] = await Promise.all([
    readMailSettings(db),
    domainNames(db),
    currentDkimKeys(db),
  ]);
  const keyOf = new Map(keys.map((k) => [k.domain, k]));
  const mx = settings.mxRecords.map((r) => ({ priority: r.priority, host: r.host }));
  return domains.map((domain) => {
    const key = keyOf.get(domain);
    return {
      domain,
      mx,
      mailHost: settings.hostname,
      spf: settings.enableSPF,
      dmarc: settings.enableDMARC,
      dkim: settings.enableDKIM && key ? { selector: key.selector, txt: dkimTxt(key.public_key) } : null,
    };
  });
}
