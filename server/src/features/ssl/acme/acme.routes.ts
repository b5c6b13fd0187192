import { sslAcmeRoutes } from '@mailroom/contract/ssl-acme';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../app-deps.ts';
import { registerRoute } from '../../../http/register-route.ts';
import { forgetAccount, listAccounts } from './acme-account.service.ts';
import { ACME_DIRECTORIES } from './acme-directories.constants.ts';
import { directoryUrlOf } from './acme-issuer.service.ts';
import { ACME_EC_CURVES, ACME_RSA_SIZES } from './acme-keys.rules.ts';
import { ACME_DNS_PROVIDERS } from './dns-provider.service.ts';

/** What the generation form offers for ACME: providers with availability, directories, keys. */
export function registerAcme(app: FastifyInstance, deps: AppDeps): void {
  registerRoute(app, sslAcmeRoutes.accounts, async () => listAccounts(deps));
  registerRoute(app, sslAcmeRoutes.resetAccount, async ({ body, request }) => {
    const url = directoryUrlOf(body.directoryUrl);
    request.auditTarget = url;
    const reset = await forgetAccount(deps, url);
    return {
      reset,
      message: reset
        ? `The ACME account for ${url} was forgotten: the next order registers a new one`
        : `Mailroom holds no ACME account for ${url}`,
    };
  });
  registerRoute(app, sslAcmeRoutes.options, async () => ({
    providers: [...ACME_DNS_PROVIDERS],
    directories: ACME_DIRECTORIES.map((d) => ({ ...d })),
    httpListenerPort: deps.config.acme.httpPort,
    keys: [
      { algorithm: 'RSA' as const, sizes: [...ACME_RSA_SIZES] },
      { algorithm: 'ECDSA' as const, sizes: Object.keys(ACME_EC_CURVES).map(Number) },
    ],
  }));
}
