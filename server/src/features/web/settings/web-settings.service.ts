import {
  WEB_SETTINGS_DEFAULTS,
  type WebServerSettings,
  webSettingsMessages,
} from '@mailroom/contract/web/settings';
import { webMessages } from '@mailroom/contract/web/vhosts';
import { fieldError } from '../../../http/errors.ts';
import { forbiddenDirective } from '../stack/custom-directives.ts';
import type { WebContext } from '../stack/web-context.ts';
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
      change: async (trx) => writeWebSettings(trx, s),
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
