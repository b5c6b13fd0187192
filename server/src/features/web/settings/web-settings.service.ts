import {
  WEB_SETTINGS_DEFAULTS,
  type WebServerSettings,
  webSettingsMessages,
} from '@mailroom/contract/web/settings';
import { PHP_LIMIT_FIELDS, phpLimitAbove, vhostLabels, webMessages } from '@mailroom/contract/web/vhosts';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { fieldError } from '../../../http/errors.ts';
import { phpHostLimits } from '../vhosts/vhost.repository.ts';
import { forbiddenDirective } from '../stack/custom-directives.rules.ts';
import type { WebContext } from '../stack/web.context.ts';
import { readWebSettings, writeWebSettings } from './web-settings.repository.ts';
import { settingsRefusals } from '../stats/capabilities.service.ts';
import { PHP_POOL_FIELDS } from '../php/php-defaults.renderer.ts';

/** The server's custom directives are refused for the same list as a site's (programs, other files). */
function checkServerDirectives(text: string): void {
  const bad = forbiddenDirective(text);
  if (bad)
    throw fieldError(
      'customDirectives',
      webMessages.directiveForbidden(bad.line, bad.what).replace("a virtual host's", "the server's"),
    );
}

/** Hosts named in a refusal (the rest are counted). */
const NAMED_HOSTS = 5;

/**
 * The server-wide PHP limits are a ceiling for every host with Enable PHP: a limit changed to less
 * than some host asks for is refused at its field, naming those hosts (nothing is changed on them).
 * Run inside the save's transaction, under the web target's apply lock (no host save in between).
 */
async function checkPhpCeiling(db: Kysely<Database>, before: WebServerSettings, s: WebServerSettings) {
  const changed = PHP_LIMIT_FIELDS.filter((f) => before[f] !== s[f]);
  if (!changed.length) return;
  const hosts = await phpHostLimits(db);
  for (const f of changed) {
    const above = hosts.filter((h) => phpLimitAbove(f, h[f], s[f]));
    if (!above.length) continue;
    const named = above
      .slice(0, NAMED_HOSTS)
      .map((h) => `${h.domain} ${h[f]}${f === 'phpMaxExecutionTime' ? ' s' : ''}`);
    throw fieldError(
      f,
      webSettingsMessages.phpLimitBelowHosts(vhostLabels[f], s[f], named, above.length - named.length),
    );
  }
}

export class WebSettingsService {
  constructor(private readonly ctx: WebContext) {}

  get(): Promise<WebServerSettings> {
    return readWebSettings(this.ctx.db);
  }

  /** Validate what the installed Apache cannot honour, then render, check, reload and probe. */
  async save(s: WebServerSettings): Promise<WebServerSettings> {
    const refusals = await settingsRefusals(this.ctx, s);
    const first = Object.entries(refusals)[0];
    if (first) throw fieldError(first[0], first[1]);
    if (s.enableCustomDirectives) checkServerDirectives(s.customDirectives);
    const before = await readWebSettings(this.ctx.db);
    await this.ctx.apply({
      change: async (trx) => {
        await checkPhpCeiling(trx, before, s);
        await writeWebSettings(trx, s);
      },
      // The PHP defaults are in every site's pool: a change of one renders them all again.
      only: () => (PHP_POOL_FIELDS.some((f) => before[f] !== s[f]) ? undefined : []),
      audit: () => ({ target: 'web settings', before, after: s }),
    });
    return readWebSettings(this.ctx.db);
  }

  reset(): Promise<WebServerSettings> {
    return this.save({ ...WEB_SETTINGS_DEFAULTS });
  }
}

export { webSettingsMessages };
