import { z } from 'zod';
import { ListQuery } from '../../common.ts';
import { JobAccepted } from '../../jobs.ts';
import { defineRoute } from '../../route.ts';
import { queryInt } from '../../validators.ts';
import { formatInvalid } from '../fields.ts';
import { APP_STATUSES, APP_TYPES } from './constants.ts';
import { appLabels } from './labels.ts';
import { APP_NAME_RE, isGitRef, WebApplicationInput } from './input.ts';
import { WebApplication, WebApplicationSummary } from './application.ts';
import { DeployLog, DeployLogQuery, WebAppRelease, WebAppReleaseDetail } from './releases.ts';

const L = appLabels;

// ---------- capabilities ----------

/** What this server can do for applications: supported types, fields not built yet (field -> reason). */
export const WebAppCapabilities = z.object({
  supportedTypes: z.array(z.enum(APP_TYPES)),
  /** Type -> why it is refused. */
  unsupportedTypes: z.record(z.string(), z.string()),
  /** Field -> why it cannot be turned on yet (absent: usable). */
  fields: z.record(z.string(), z.string()),
  /** Deployment paths must resolve inside one of these. */
  allowedRoots: z.array(z.string()),
  /** Whether apps run as their own Unix user (mr-app-<name>), and why not. */
  ownUser: z.object({ enabled: z.boolean(), reason: z.string() }),
  /** Whether Mailroom runs the app processes itself (local mode) and why not. */
  supervised: z.object({ enabled: z.boolean(), reason: z.string() }),
  releaseRetention: z.number(),
});
export type WebAppCapabilities = z.infer<typeof WebAppCapabilities>;

// ---------- requests ----------

export const APP_LIST_DEFAULT_LIMIT = 50;
export const APP_LIST_MAX_LIMIT = 500;
export const APP_SORT_FIELDS = ['name', 'domain', 'type', 'status', 'lastDeployed'] as const;
export const AppListQuery = ListQuery.extend({
  limit: queryInt(1, APP_LIST_MAX_LIMIT, 'limit').optional(),
  sort: z
    .enum([...APP_SORT_FIELDS, ...APP_SORT_FIELDS.map((f) => `-${f}` as const)], {
      error: `sort must be one of ${APP_SORT_FIELDS.join(', ')}, optionally prefixed with -`,
    })
    .optional(),
  type: z.enum(APP_TYPES, { error: `type must be one of ${APP_TYPES.join(', ')}` }).optional(),
  status: z.enum(APP_STATUSES, { error: `status must be one of ${APP_STATUSES.join(', ')}` }).optional(),
});
export type AppListQuery = z.input<typeof AppListQuery>;

const nameParam = z.object({
  name: z.string().regex(APP_NAME_RE, formatInvalid(L.name)),
});
const releaseParams = nameParam.extend({ id: queryInt(1, 2 ** 31 - 1, 'Release id') });

export const DeployRequest = z.object({
  /** Branch, tag or commit to deploy (default: the application's branch). */
  ref: z
    .string({ error: formatInvalid(L.branch) })
    .trim()
    .max(200, formatInvalid(L.branch))
    .refine((v) => isGitRef(v), formatInvalid(L.branch))
    .optional(),
});
export type DeployRequest = z.input<typeof DeployRequest>;

export const RollbackRequest = z.object({
  /** The release to run again (default: the one before the live one). */
  releaseId: z.number({ error: 'releaseId must be a release id' }).int().positive().optional(),
});
export type RollbackRequest = z.input<typeof RollbackRequest>;

export const RemoveAppRequest = z.object({
  /** Keep the release folders (default) or delete them with the application. */
  keepFiles: z.boolean({ error: 'keepFiles must be true or false' }).default(true),
});
export type RemoveAppRequest = z.input<typeof RemoveAppRequest>;

export const AppSaved = z.object({
  success: z.literal(true),
  message: z.string(),
  application: WebApplication,
});
export type AppSaved = z.infer<typeof AppSaved>;

export const RemoveAppResponse = z.object({
  success: z.literal(true),
  filesRemoved: z.boolean(),
  deploymentPath: z.string(),
});

const tags = ['web-applications'];

export const webAppRoutes = {
  list: defineRoute({
    method: 'GET',
    path: 'web/applications',
    summary:
      'Web applications, paged (?q= matches name, domain or description; ?type=; ?status=; keyset ?cursor=); total in X-Total-Count',
    tags,
    query: AppListQuery,
    response: z.array(WebApplicationSummary),
  }),
  capabilities: defineRoute({
    method: 'GET',
    path: 'web/capabilities/applications',
    summary: 'Application types and fields this server supports, with the reason for the others',
    tags,
    response: WebAppCapabilities,
  }),
  get: defineRoute({
    method: 'GET',
    path: 'web/applications/:name',
    summary: 'One web application, with its environment variables',
    tags,
    params: nameParam,
    response: WebApplication,
  }),
  create: defineRoute({
    method: 'POST',
    path: 'web/applications/add',
    summary:
      'Create a web application: its virtual host is made (or reused) and proxies to the app once deployed',
    tags,
    body: WebApplicationInput,
    response: AppSaved,
    audit: 'web.app.create',
  }),
  update: defineRoute({
    method: 'POST',
    path: 'web/applications/update/:name',
    summary: 'Change a web application (the running release keeps its environment until the next deploy)',
    tags,
    params: nameParam,
    body: WebApplicationInput,
    response: AppSaved,
    audit: 'web.app.update',
  }),
  remove: defineRoute({
    method: 'POST',
    path: 'web/applications/remove/:name',
    summary:
      'Delete a web application: its processes are stopped, its virtual host deleted; keepFiles keeps its releases',
    tags,
    params: nameParam,
    body: RemoveAppRequest,
    response: RemoveAppResponse,
    audit: 'web.app.remove',
  }),
  deploy: defineRoute({
    method: 'POST',
    path: 'web/applications/deploy/:name',
    summary:
      'Deploy as a job: clone at the ref, build, start on a fresh port, health-check, then switch Apache and stop the old release',
    tags,
    params: nameParam,
    body: DeployRequest,
    response: JobAccepted,
    accepted: JobAccepted,
    audit: 'web.app.deploy',
  }),
  rollback: defineRoute({
    method: 'POST',
    path: 'web/applications/rollback/:name',
    summary:
      'Run an earlier release again with its own environment, through the same health-gated switch (a job)',
    tags,
    params: nameParam,
    body: RollbackRequest,
    response: JobAccepted,
    accepted: JobAccepted,
    audit: 'web.app.rollback',
  }),
  start: defineRoute({
    method: 'POST',
    path: 'web/applications/start/:name',
    summary: 'Start the live release and serve it',
    tags,
    params: nameParam,
    response: AppSaved,
    audit: 'web.app.start',
  }),
  stop: defineRoute({
    method: 'POST',
    path: 'web/applications/stop/:name',
    summary: 'Stop the app: Apache answers 503 for its domain',
    tags,
    params: nameParam,
    response: AppSaved,
    audit: 'web.app.stop',
  }),
  restart: defineRoute({
    method: 'POST',
    path: 'web/applications/restart/:name',
    summary: 'Restart the live release',
    tags,
    params: nameParam,
    response: AppSaved,
    audit: 'web.app.restart',
  }),
  toggle: defineRoute({
    method: 'POST',
    path: 'web/applications/toggle/:name',
    summary: 'Spec §4 toggle: active -> stop (inactive), anything else -> start (active)',
    tags,
    params: nameParam,
    response: AppSaved,
    audit: 'web.app.toggle',
  }),
  releases: defineRoute({
    method: 'GET',
    path: 'web/applications/:name/releases',
    summary: 'The release history, newest first (no build log, no environment values)',
    tags,
    params: nameParam,
    response: z.array(WebAppRelease),
  }),
  release: defineRoute({
    method: 'GET',
    path: 'web/applications/:name/releases/:id',
    summary: 'One release with its build log',
    tags,
    params: releaseParams,
    response: WebAppReleaseDetail,
  }),
  deployLog: defineRoute({
    method: 'GET',
    path: 'web/applications/:name/deploy-log',
    summary:
      "Lines of a deploy job log with their sequence numbers (?after= resumes; the job's event counts.logLines says the last seq stored)",
    tags,
    params: nameParam,
    query: DeployLogQuery,
    response: DeployLog,
  }),
};
