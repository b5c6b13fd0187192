import { z } from 'zod';
import { defineRoute } from '../route.ts';
import { APP_NAME_RE } from './applications.ts';
import { formatInvalid } from './fields.ts';

/**
 * Auto deploy of a web application (issue 20, `enableAutoDeploy` / `autoDeployBranch`): BOTH a
 * signed webhook and polling of the remote, sharing one rule.
 *
 * - Webhook: `POST /api/web/hooks/applications/<name>` (no session: the signature is the
 *   authentication). The body is the JSON push event of GitHub, Gitea, Forgejo or Gogs; the header
 *   `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(secret, raw body)>` signs it (compared in constant
 *   time); the delivery id header (`X-GitHub-Delivery`, `X-Gitea-Delivery`, `X-Gogs-Delivery` or
 *   `X-Delivery-Id`) is remembered for `WEBHOOK_REPLAY_WINDOW_SECONDS`: the same delivery again is
 *   refused. Only a push to the auto-deploy branch (`autoDeployBranch`, else `branch`) counts.
 * - Polling: every application with Enable Auto Deploy has its branch read with `git ls-remote`
 *   every `AUTO_DEPLOY_POLL_SECONDS` (server: application.module.ts).
 * - The rule (both): the head of the branch is read from the remote itself (never taken from the
 *   payload); when it is neither the live commit nor the commit auto deploy last handed to a deploy,
 *   the normal, health-gated deploy job starts for the branch. So a replayed or forged-but-signed old
 *   payload can at most make Mailroom look at the remote, and a commit whose deploy failed is not
 *   tried again by itself (a new commit or a deploy from the console is).
 */

export const WEBHOOK_SIGNATURE_HEADER = 'x-hub-signature-256';
export const WEBHOOK_DELIVERY_HEADERS = [
  'x-github-delivery',
  'x-gitea-delivery',
  'x-gogs-delivery',
  'x-delivery-id',
] as const;
export const WEBHOOK_EVENT_HEADERS = ['x-github-event', 'x-gitea-event', 'x-gogs-event'] as const;
/** A delivery id is remembered this long; the same id again inside it is refused (409). */
export const WEBHOOK_REPLAY_WINDOW_SECONDS = 24 * 3600;
/** Deliveries accepted per client address and minute (past it: 429), signed or not. */
export const WEBHOOK_RATE_LIMIT_PER_MINUTE = 30;
/** How often the remote branch of each application with Enable Auto Deploy is read. */
export const AUTO_DEPLOY_POLL_SECONDS = 60;
/** The largest push event accepted (bytes). */
export const WEBHOOK_MAX_BODY = 5 * 1024 * 1024;

/** The path of an application's webhook (under /api). */
export const webhookPath = (name: string) => `/api/web/hooks/applications/${encodeURIComponent(name)}`;

export const autoDeployMessages = {
  badSignature: 'The X-Hub-Signature-256 signature is missing or wrong',
  deliveryRequired:
    'A delivery id header is required (X-GitHub-Delivery, X-Gitea-Delivery, X-Gogs-Delivery or X-Delivery-Id)',
  replayed: (id: string) => `Delivery ${id} was already received: a replay is refused`,
  badPayload: 'The body is not a JSON push event',
  disabled: (name: string) => `Enable Auto Deploy is off for ${name}: nothing deployed`,
  otherEvent: (event: string) => `The ${event} event is not a push: nothing deployed`,
  otherBranch: (ref: string, branch: string) =>
    `${ref} is not the auto-deploy branch refs/heads/${branch}: nothing deployed`,
  pong: 'Pong: the signature is right',
  alreadyLive: (commit: string) => `${commit.slice(0, 12)} is already live: nothing deployed`,
  alreadyTried: (commit: string) =>
    `${commit.slice(0, 12)} was already handed to a deploy: push a new commit or deploy from the console`,
  busy: (name: string, commit: string) =>
    `${name} is being deployed now; the next poll deploys ${commit.slice(0, 12)}`,
  started: (name: string, commit: string) => `Deploying ${name} at ${commit.slice(0, 12)}`,
  branchMissing: (branch: string) => `The remote has no branch ${branch}`,
  secretShownOnce: 'Copy this secret into the webhook settings of your Git server now: it is not shown again',
} as const;

const nameParam = z.object({ name: z.string().regex(APP_NAME_RE, formatInvalid('Name')) });

/** What auto deploy does for an application (never the secret). */
export const AutoDeployInfo = z.object({
  enabled: z.boolean(),
  /** The branch whose pushes deploy (Auto Deploy Branch, else Branch). */
  branch: z.string(),
  /** Path of the webhook under this server (prefix the console's own origin). */
  webhookPath: z.string(),
  /** A webhook secret exists (made or rotated at `secretCreatedAt`). */
  secretSet: z.boolean(),
  secretCreatedAt: z.string().nullable(),
  pollSeconds: z.number(),
  /** The commit auto deploy last handed to a deploy (null: none yet). */
  lastCommit: z.string().nullable(),
  lastCheckedAt: z.string().nullable(),
  /** What the last check (webhook or poll) concluded. */
  lastResult: z.string(),
});
export type AutoDeployInfo = z.infer<typeof AutoDeployInfo>;

export const WebhookSecretAnswer = z.object({
  success: z.literal(true),
  /** Shown this once: only its sealed form is stored. */
  secret: z.string(),
  webhookPath: z.string(),
  createdAt: z.string(),
  message: z.string(),
});
export type WebhookSecretAnswer = z.infer<typeof WebhookSecretAnswer>;

export const AUTO_DEPLOY_OUTCOMES = ['deploying', 'ignored', 'pong'] as const;
export const AutoDeployOutcome = z.object({
  outcome: z.enum(AUTO_DEPLOY_OUTCOMES),
  reason: z.string(),
  commit: z.string().nullable(),
  jobId: z.number().nullable(),
});
export type AutoDeployOutcome = z.infer<typeof AutoDeployOutcome>;

const tags = ['web-applications'];

export const appAutoDeployRoutes = {
  info: defineRoute({
    method: 'GET',
    path: 'web/applications/:name/auto-deploy',
    summary:
      'Auto deploy of an application: webhook path, whether a secret is set, last check (never the secret)',
    tags,
    params: nameParam,
    response: AutoDeployInfo,
  }),
  rotateSecret: defineRoute({
    method: 'POST',
    path: 'web/applications/webhook-secret/:name',
    summary:
      'Make (or replace) the webhook secret of an application; the answer shows it once, only its sealed form is kept',
    tags,
    params: nameParam,
    response: WebhookSecretAnswer,
    audit: 'web.app.webhook.rotate',
  }),
  check: defineRoute({
    method: 'POST',
    path: 'web/applications/check-remote/:name',
    summary:
      'Read the auto-deploy branch from the remote now (git ls-remote) and deploy it when it moved (the poll, at once)',
    tags,
    params: nameParam,
    response: AutoDeployOutcome,
    accepted: AutoDeployOutcome,
    audit: 'web.app.autodeploy.check',
  }),
  deliver: defineRoute({
    method: 'POST',
    path: 'web/hooks/applications/:name',
    summary:
      'Webhook of a Git server (no session): a push event signed with X-Hub-Signature-256 (HMAC-SHA256 of the raw body with the secret) and a delivery id header; 401 for a wrong signature, 409 for a replayed delivery, 429 past the rate limit',
    tags,
    params: nameParam,
    response: AutoDeployOutcome,
    accepted: AutoDeployOutcome,
    public: true,
    audit: 'web.app.webhook',
  }),
};
