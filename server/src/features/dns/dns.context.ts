import type { MailDnsFactsProvider } from '@mailroom/contract/mail-dns';
import type { AppDeps } from '../../app-deps.ts';
import type { BindLayout } from './stack/bind.layout.ts';

/** What every DNS service is given. */
export interface DnsContext {
  deps: AppDeps;
  layout: BindLayout;
  /** The mail area's facts about its domains, for the derived records; absent until wired. */
  mailFacts: MailDnsFactsProvider | undefined;
  /** The SSL area's certificate count for the dashboard; absent until wired. */
  sslCount?: (() => Promise<number>) | undefined;
}
