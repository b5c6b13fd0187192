import { apiMessages } from '@mailroom/contract/messages';
import {
  buildPath,
  type BodyOf,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
  type RouteDef,
} from '@mailroom/contract/route';
import { notify } from '../lib/notifications-store.ts';
import { clearLogin, getApiKey } from './auth-store.ts';

/**
 * Same value as the contract's TOTAL_COUNT_HEADER (client.test.ts checks): importing it would pull
 * zod into the sign-in page's bundle, because contract/common builds schemas when it loads.
 */
export const TOTAL_COUNT_HEADER = 'x-total-count';
/** Same value as the contract's TOTAL_CAPPED_HEADER: the count stopped at its cap. */
export const TOTAL_CAPPED_HEADER = 'x-total-capped';
/** Same values as the contract's NEXT_CURSOR_HEADER and PREV_CURSOR_HEADER. */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';
export const PREV_CURSOR_HEADER = 'x-prev-cursor';

/** Status used for failures that happen in the browser before or after the HTTP exchange. */
export const CLIENT_ERROR_STATUS = -1;
/** Status used when the server could not be reached at all (spec §8 "status 0"). */
export const NETWORK_ERROR_STATUS = 0;

/**
 * A failed call. `message` is the user-facing text of spec §8; `serverMessage` is what the server
 * itself said (shown as-is for 400/409/422, and for the login throttle's 429).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly details: unknown;
  readonly fieldErrors: Record<string, string>;
  readonly serverMessage: string | null;

  constructor(opts: {
    status: number;
    message: string;
    code?: string | null;
    details?: unknown;
    serverMessage?: string | null;
  }) {
    super(opts.message);
    this.name = 'ApiError';
    this.status = opts.status;
    this.code = opts.code ?? null;
    this.details = opts.details ?? null;
    this.serverMessage = opts.serverMessage ?? null;
    this.fieldErrors = fieldErrorsOf(this.details);
  }
}

function fieldErrorsOf(details: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(details)) return out;
  for (const d of details as unknown[]) {
    if (d && typeof d === 'object' && 'field' in d && 'message' in d) {
      const { field, message } = d;
      if (typeof field === 'string' && typeof message === 'string' && !(field in out)) out[field] = message;
    }
  }
  return out;
}

/** The spec §8 text for an HTTP status; 400/409/422 carry the server's own field or rule message. */
export function messageForStatus(status: number, serverMessage: string | null): string {
  switch (status) {
    case NETWORK_ERROR_STATUS:
      return apiMessages[0];
    case 401:
      return apiMessages[401];
    case 403:
      return apiMessages[403];
    case 404:
      return apiMessages[404];
    case 500:
      return apiMessages[500];
    case 400:
    case 409:
    case 422:
      if (serverMessage) return serverMessage;
      return apiMessages.other(status, 'Bad request');
    default:
      return apiMessages.other(status, serverMessage ?? 'Unknown error');
  }
}

/** A user-facing text for anything a call or a handler may throw. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error && err.message) return apiMessages.client(err.message);
  return apiMessages.default;
}

export interface CallInput<D> {
  params?: ParamsOf<D>;
  query?: QueryOf<D>;
  body?: BodyOf<D>;
}

function queryValue(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v instanceof Date) return v.toISOString();
  return JSON.stringify(v);
}

function appendQuery(sp: URLSearchParams, query: unknown): void {
  if (!query || typeof query !== 'object') return;
  for (const [k, v] of Object.entries(query as Record<string, unknown>)) {
    for (const item of Array.isArray(v) ? (v as unknown[]) : [v]) {
      const s = queryValue(item);
      if (s !== null) sp.append(k, s);
    }
  }
}

/**
 * The URL of a catalogue entry. Backend paths with a slash go as `index.php?path=` (spec §7);
 * the server answers both forms with the same handler.
 */
export function buildUrl(def: RouteDef, params?: unknown, query?: unknown): string {
  const path = buildPath(def.path, params as Record<string, string | number> | undefined);
  const base = def.base ?? '/api';
  const sp = new URLSearchParams();
  if (base === '/api' && path.includes('/')) {
    sp.set('path', path);
    appendQuery(sp, query);
    return `/api/index.php?${sp.toString()}`;
  }
  appendQuery(sp, query);
  const qs = sp.toString();
  return `${base}/${path}${qs ? `?${qs}` : ''}`;
}

function isLogin(def: RouteDef): boolean {
  return def.base === '/auth' && def.path === 'login';
}

function sessionExpired(): void {
  // Only the first 401 of a burst signs out and tells the user; later ones find no key.
  if (getApiKey() === null) return;
  clearLogin(apiMessages[401]);
  notify({ type: 'warning', title: 'Signed out', message: apiMessages[401] });
}

/** The auth guard's answer to a session limited to enrolling a second factor. */
const ENROL_FIRST = 'Enrol a second factor first.';

/**
 * MFA became required for a signed-in account (mfa/enable, a policy: issue 22 item 7): its session
 * now reaches only its own account calls, so the console goes to the enrolment page.
 */
function enrolmentRequired(): void {
  if (window.location.pathname === '/account') return;
  window.location.assign('/account?enrol=1');
}

/** The ApiError of a failed answer (and sign-out on a 401 outside the login). */
function failure(def: RouteDef, res: Response, json: unknown): ApiError {
  const errBody = json && typeof json === 'object' ? (json as Record<string, unknown>) : {};
  const serverMessage = typeof errBody.message === 'string' ? errBody.message : res.statusText || null;
  if (res.status === 401 && !isLogin(def)) sessionExpired();
  if (res.status === 403 && serverMessage === ENROL_FIRST) enrolmentRequired();
  return new ApiError({
    status: res.status,
    code: typeof errBody.code === 'string' ? errBody.code : null,
    details: errBody.details ?? null,
    serverMessage,
    message: messageForStatus(res.status, serverMessage),
  });
}

function authHeaders(contentType: string): Record<string, string> {
  // X-Requested-With marks the call as the console's own (the server's CSRF guard for cookie sessions).
  const headers: Record<string, string> = {
    'Content-Type': contentType,
    Accept: 'application/json',
    'X-Requested-With': 'mailroom',
  };
  const key = getApiKey();
  if (key) headers.Authorization = `Bearer ${key}`;
  return headers;
}

async function send(
  def: RouteDef,
  input: { params?: unknown; query?: unknown },
  body: BodyInit | undefined,
  contentType: string,
): Promise<{ data: unknown; headers: Headers }> {
  let url: string;
  try {
    url = buildUrl(def, input.params, input.query);
  } catch (e) {
    throw new ApiError({ status: CLIENT_ERROR_STATUS, code: 'CLIENT_ERROR', message: errorMessage(e) });
  }
  const headers = authHeaders(contentType);

  let res: Response;
  try {
    res = await fetch(url, { method: def.method, headers, body, credentials: 'same-origin' });
  } catch {
    throw new ApiError({ status: NETWORK_ERROR_STATUS, code: 'NETWORK_ERROR', message: apiMessages[0] });
  }

  const text = await res.text().catch(() => '');
  let json: unknown = undefined;
  let parseError: string | null = null;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch (e) {
      parseError = e instanceof Error ? e.message : 'invalid JSON';
    }
  }

  if (!res.ok) throw failure(def, res, json);
  if (parseError !== null) {
    throw new ApiError({
      status: CLIENT_ERROR_STATUS,
      code: 'CLIENT_ERROR',
      message: apiMessages.client(parseError),
    });
  }
  return { data: json, headers: res.headers };
}

function jsonBody(def: RouteDef, body: unknown): string | undefined {
  if (body !== undefined) return JSON.stringify(body);
  // A JSON content type with an empty body is a 400 on the server; send an empty object instead.
  return def.method === 'GET' ? undefined : '{}';
}

/** One call of the catalogue: bearer key, JSON in and out, spec §8 errors, 401 → signed out. */
export async function apiCall<D extends RouteDef>(def: D, input: CallInput<D> = {}): Promise<ResponseOf<D>> {
  const { data } = await send(def, input, jsonBody(def, input.body), 'application/json');
  return data as ResponseOf<D>;
}

/**
 * A list call that also answers the `X-Total-Count` header and the cursors of the neighbouring
 * pages (`X-Next-Cursor`, `X-Prev-Cursor`) when the list pages by key.
 */
export async function apiCallWithTotal<D extends RouteDef>(
  def: D,
  input: CallInput<D> = {},
): Promise<{ data: ResponseOf<D>; total: number; capped: boolean; next?: string; prev?: string }> {
  const { data, headers } = await send(def, input, jsonBody(def, input.body), 'application/json');
  const header = headers.get(TOTAL_COUNT_HEADER);
  const parsed = header === null ? NaN : Number.parseInt(header, 10);
  const total = Number.isFinite(parsed) ? parsed : Array.isArray(data) ? data.length : 0;
  const next = headers.get(NEXT_CURSOR_HEADER);
  const prev = headers.get(PREV_CURSOR_HEADER);
  const capped = headers.get(TOTAL_CAPPED_HEADER) === 'true';
  return {
    data: data as ResponseOf<D>,
    total,
    capped,
    ...(next ? { next } : {}),
    ...(prev ? { prev } : {}),
  };
}

/**
 * A streamed download (an export): the answer's bytes as a Blob, reported chunk by chunk as they
 * arrive so the page can show progress. Failures are the same ApiErrors as any call.
 */
export async function apiDownload<D extends RouteDef>(
  def: D,
  input: { params?: ParamsOf<D>; query?: QueryOf<D> },
  onChunk?: (chunk: Uint8Array) => void,
): Promise<Blob> {
  let url: string;
  try {
    url = buildUrl(def, input.params, input.query);
  } catch (e) {
    throw new ApiError({ status: CLIENT_ERROR_STATUS, code: 'CLIENT_ERROR', message: errorMessage(e) });
  }
  let res: Response;
  try {
    res = await fetch(url, {
      method: def.method,
      headers: authHeaders('application/json'),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError({ status: NETWORK_ERROR_STATUS, code: 'NETWORK_ERROR', message: apiMessages[0] });
  }
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    throw failure(def, res, json);
  }
  const type = res.headers.get('content-type') ?? 'application/octet-stream';
  if (!res.body) return new Blob([await res.arrayBuffer()], { type });
  const parts: Uint8Array[] = [];
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      onChunk?.(value);
    }
  } catch {
    throw new ApiError({ status: NETWORK_ERROR_STATUS, code: 'NETWORK_ERROR', message: apiMessages[0] });
  }
  return new Blob(parts as BlobPart[], { type });
}

/** Sends a raw body (a CSV file, for instance) instead of JSON. */
export async function apiUpload<D extends RouteDef>(
  def: D,
  input: { params?: ParamsOf<D>; query?: QueryOf<D> },
  body: string | Blob,
  contentType: string,
): Promise<ResponseOf<D>> {
  const { data } = await send(def, input, body, contentType);
  return data as ResponseOf<D>;
}
