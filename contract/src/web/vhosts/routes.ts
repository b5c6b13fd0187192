import { z } from 'zod';
import { ListQuery, OkResponse } from '../../common.ts';
import { defineRoute } from '../../route.ts';
import { queryInt } from '../../validators.ts';
import { formatInvalid, hostNameField } from '../fields.ts';
import { VHOST_STATUSES, vhostLabels, type VhostStatus } from './labels.ts';
import { VirtualHostRequest } from './input.ts';
import { VirtualHost } from './virtual-host.ts';

const L = vhostLabels;

// ---------- requests ----------

export const VHOST_LIST_DEFAULT_LIMIT = 50;
export const VHOST_LIST_MAX_LIMIT = 500;
export const VHOST_SORT_FIELDS = ['domain', 'documentRoot', 'status', 'lastModified'] as const;
export const VhostListQuery = ListQuery.extend({
  limit: queryInt(1, VHOST_LIST_MAX_LIMIT, 'limit').optional(),
  sort: z
    .enum([...VHOST_SORT_FIELDS, ...VHOST_SORT_FIELDS.map((f) => `-${f}` as const)], {
      error: `sort must be one of ${VHOST_SORT_FIELDS.join(', ')}, optionally prefixed with -`,
    })
    .optional(),
  status: z.enum(VHOST_STATUSES, { error: `status must be one of ${VHOST_STATUSES.join(', ')}` }).optional(),
});
export type VhostListQuery = z.input<typeof VhostListQuery>;

const domainParam = z.object({ domain: hostNameField(L.domain) });

export const VhostStatusRequest = z.object({
  status: z.enum(VHOST_STATUSES, { error: `status must be one of ${VHOST_STATUSES.join(', ')}` }),
});
/** Spec §4 toggle: active -> inactive, anything else -> active. */
export const toggledStatus = (s: VhostStatus): VhostStatus => (s === 'active' ? 'inactive' : 'active');

export const RemoveVhostRequest = z.object({
  /** Keep the document root's files (default) or delete them with the host. */
  keepFiles: z.boolean({ error: 'keepFiles must be true or false' }).default(true),
});
export type RemoveVhostRequest = z.input<typeof RemoveVhostRequest>;

/** What a save did: the host as stored, and whether the server now serves it. */
export const VhostSaved = z.object({
  success: z.literal(true),
  message: z.string(),
  vhost: VirtualHost,
});
export type VhostSaved = z.infer<typeof VhostSaved>;

export const RemoveVhostResponse = z.object({
  success: z.literal(true),
  /** Whether the document root was deleted (false: kept). */
  filesRemoved: z.boolean(),
  documentRoot: z.string(),
  /**
   * The site's Unix user (`mr-site-<id>`, its PHP-FPM pool's): removed with the site, after kept
   * files were given to root; null when Mailroom does not run as root (there is none).
   */
  siteUser: z.string().nullable().optional(),
});

/** Catalogue `web/domains`: the hosted web domains. */
export const WebDomain = z.object({
  domain: z.string(),
  status: z.enum(VHOST_STATUSES),
  sslEnabled: z.boolean(),
  documentRoot: z.string(),
});
export const AddWebDomainRequest = z.object({ domain: hostNameField(L.domain) });

/** The one-line format check for the screen (a bare name included). */
export const webHostNameMessage = formatInvalid;

const tags = ['web'];

export const webVhostRoutes = {
  list: defineRoute({
    method: 'GET',
    path: 'web/vhosts',
    summary:
      'Virtual hosts, paged (?q= matches domain or document root; ?status=; keyset ?cursor=); total in X-Total-Count',
    tags,
    query: VhostListQuery,
    response: z.array(VirtualHost),
    access: 'domain',
  }),
  get: defineRoute({
    method: 'GET',
    path: 'web/vhosts/:domain',
    summary: 'One virtual host',
    tags,
    params: domainParam,
    response: VirtualHost,
    access: 'domain',
    domainFields: ['params.domain'],
  }),
  create: defineRoute({
    method: 'POST',
    path: 'web/vhosts/add',
    summary:
      "Create a virtual host: validated, its file rendered and checked by Apache, reloaded and probed (422 with Apache's words when refused)",
    tags,
    body: VirtualHostRequest,
    response: VhostSaved,
    audit: 'web.vhost.create',
    access: 'domain',
    domainFields: ['body.domain'],
  }),
  update: defineRoute({
    method: 'POST',
    path: 'web/vhosts/update/:domain',
    summary: 'Change a virtual host (one file rewritten, one reload)',
    tags,
    params: domainParam,
    body: VirtualHostRequest,
    response: VhostSaved,
    audit: 'web.vhost.update',
    access: 'domain',
    domainFields: ['params.domain', 'body.domain'],
  }),
  setStatus: defineRoute({
    method: 'POST',
    path: 'web/vhosts/status/:domain',
    summary: 'Set a virtual host active, inactive (not served: 503) or in maintenance (503 + Retry-After)',
    tags,
    params: domainParam,
    body: VhostStatusRequest,
    response: VhostSaved,
    audit: 'web.vhost.status',
    access: 'domain',
    domainFields: ['params.domain'],
  }),
  remove: defineRoute({
    method: 'POST',
    path: 'web/vhosts/remove/:domain',
    summary: 'Delete a virtual host; keepFiles (default true) keeps its document root',
    tags,
    params: domainParam,
    body: RemoveVhostRequest,
    response: RemoveVhostResponse,
    audit: 'web.vhost.remove',
    access: 'domain',
    domainFields: ['params.domain'],
  }),
  // The shared call catalogue's web/domains* calls (spec 1 §7).
  domains: defineRoute({
    method: 'GET',
    path: 'web/domains',
    summary: 'The hosted web domains (one per virtual host)',
    tags,
    response: z.array(WebDomain),
    access: 'domain',
  }),
  addDomain: defineRoute({
    method: 'POST',
    path: 'web/domains/add',
    summary: 'Host a domain: a virtual host with the spec defaults (document root under the web root)',
    tags,
    body: AddWebDomainRequest,
    response: OkResponse,
    audit: 'web.domain.add',
    access: 'domain',
    domainFields: ['body.domain'],
  }),
  removeDomain: defineRoute({
    method: 'POST',
    path: 'web/domains/remove/:domain',
    summary: 'Stop hosting a domain: its virtual host is deleted, its files are kept',
    tags,
    params: domainParam,
    response: OkResponse,
    audit: 'web.domain.remove',
    access: 'domain',
    domainFields: ['params.domain'],
  }),
};
