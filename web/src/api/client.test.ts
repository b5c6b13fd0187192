import {
  TOTAL_CAPPED_HEADER as CONTRACT_TOTAL_CAPPED_HEADER,
  TOTAL_COUNT_HEADER as CONTRACT_TOTAL_COUNT_HEADER,
} from '@mailroom/contract/common';
import { defineRoute } from '@mailroom/contract/route';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { notificationsStore } from '../lib/notifications-store.ts';
import { getApiKey, getSignOutReason, setLogin } from './auth-store.ts';
import { authRoutes } from './auth-routes.ts';
import {
  apiCall,
  apiCallWithTotal,
  ApiError,
  apiUpload,
  buildUrl,
  errorMessage,
  messageForStatus,
  TOTAL_CAPPED_HEADER,
  TOTAL_COUNT_HEADER,
} from './client.ts';

const list = defineRoute({
  method: 'GET',
  path: 'mail/users',
  summary: '',
  tags: [],
  query: z.object({
    q: z.string().optional(),
    limit: z.number().optional(),
    tags: z.array(z.string()).optional(),
  }),
  response: z.array(z.object({ email: z.string() })),
});
const remove = defineRoute({
  method: 'POST',
  path: 'mail/users/remove/:email',
  summary: '',
  tags: [],
  params: z.object({ email: z.string() }),
  response: z.object({ success: z.literal(true) }),
});
const audit = defineRoute({ method: 'GET', path: 'audit', summary: '', tags: [], response: z.unknown() });
const create = defineRoute({
  method: 'POST',
  path: 'mail/users/add',
  summary: '',
  tags: [],
  body: z.object({ email: z.string() }),
  response: z.unknown(),
});

type FetchArgs = [string, RequestInit];
let fetchMock: ReturnType<typeof vi.fn<(...a: FetchArgs) => Promise<Response>>>;

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  fetchMock.mockResolvedValueOnce(
    new Response(body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    }),
  );
}

beforeEach(() => {
  fetchMock = vi.fn<(...a: FetchArgs) => Promise<Response>>();
  vi.stubGlobal('fetch', fetchMock);
  notificationsStore.clearAll();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('URLs (spec §7)', () => {
  it('sends a backend path with a slash as index.php?path=, with its query after it', () => {
    expect(buildUrl(list, undefined, { q: 'a b', limit: 5, tags: ['x', 'y'] })).toBe(
      '/api/index.php?path=mail%2Fusers&q=a+b&limit=5&tags=x&tags=y',
    );
  });

  it('encodes path parameters so the server decodes them back', () => {
    const url = buildUrl(remove, { email: 'a+b@example.com' });
    expect(url).toBe('/api/index.php?path=mail%2Fusers%2Fremove%2Fa%252Bb%2540example.com');
    expect(new URLSearchParams(url.split('?')[1]).get('path')).toBe('mail/users/remove/a%2Bb%40example.com');
  });

  it('keeps a path without a slash and the auth base as they are', () => {
    expect(buildUrl(audit, undefined, { limit: 10, empty: '', gone: undefined })).toBe('/api/audit?limit=10');
    expect(buildUrl(authRoutes.login)).toBe('/auth/login');
  });

  it('uses the contract header name for totals', () => {
    expect(TOTAL_COUNT_HEADER).toBe(CONTRACT_TOTAL_COUNT_HEADER);
    expect(TOTAL_CAPPED_HEADER).toBe(CONTRACT_TOTAL_CAPPED_HEADER);
  });
});

describe('apiCall', () => {
  it('sends the bearer key and JSON, and answers the parsed body', async () => {
    setLogin('key-123', 'admin@example.com');
    answer(200, [{ email: 'a@example.com' }]);
    const data = await apiCall(list, { query: { q: 'a' } });
    expect(data).toEqual([{ email: 'a@example.com' }]);
    const [, init] = fetchMock.mock.calls[0]!;
    const headers = init.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer key-123');
    expect(headers['Content-Type']).toBe('application/json');
    expect(init.method).toBe('GET');
    expect(init.body).toBeUndefined();
  });

  it('sends the body as JSON, and {} for a POST without one', async () => {
    answer(200, { ok: 1 });
    await apiCall(create, { body: { email: 'x@example.com' } });
    expect(fetchMock.mock.calls[0]![1].body).toBe('{"email":"x@example.com"}');
    answer(200, { success: true });
    await apiCall(remove, { params: { email: 'x@example.com' } });
    expect(fetchMock.mock.calls[1]![1].body).toBe('{}');
  });

  it('sends no Authorization header without a stored key', async () => {
    answer(200, {});
    await apiCall(audit);
    expect((fetchMock.mock.calls[0]![1].headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it.each([
    [403, 'Access denied. You do not have permission to perform this action.'],
    [404, 'The requested resource was not found.'],
    [500, 'Internal server error. Please try again later.'],
    [502, 'Server Error: 502 - upstream down'],
    [429, 'Server Error: 429 - upstream down'],
  ])('maps HTTP %d to the spec §8 message', async (status, text) => {
    answer(status, { code: 'X', message: 'upstream down', details: null, timestamp: '', retryable: false });
    const err = await apiCall(audit).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(status);
    expect((err as ApiError).message).toBe(text);
    expect((err as ApiError).serverMessage).toBe('upstream down');
  });

  it('shows the server message for 400/409/422 and collects field errors', async () => {
    answer(400, {
      code: 'VALIDATION_ERROR',
      message: 'Email is required',
      details: [
        { field: 'email', message: 'Email is required' },
        { field: 'password', message: 'Password must be at least 8 characters' },
        { field: 'email', message: 'second message ignored' },
      ],
      timestamp: '',
      retryable: false,
    });
    const err = (await apiCall(create, { body: { email: '' } }).catch((e: unknown) => e)) as ApiError;
    expect(err.message).toBe('Email is required');
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.fieldErrors).toEqual({
      email: 'Email is required',
      password: 'Password must be at least 8 characters',
    });

    answer(409, { code: 'CONFLICT', message: 'Mailbox a@example.com already exists', details: null });
    const conflict = (await apiCall(create, { body: { email: 'a' } }).catch((e: unknown) => e)) as ApiError;
    expect(conflict.message).toBe('Mailbox a@example.com already exists');
  });

  it('maps an unreachable server to status 0 and its message', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const err = (await apiCall(audit).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(0);
    expect(err.message).toBe('Unable to connect to the server. Please check your connection.');
  });

  it('reports a broken answer or a missing parameter as a client error', async () => {
    answer(200, '{not json');
    const bad = (await apiCall(audit).catch((e: unknown) => e)) as ApiError;
    expect(bad.message).toMatch(/^Client Error: /);
    const missing = (await apiCall(remove, { params: {} as { email: string } }).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect(missing.message).toBe('Client Error: missing path parameter email');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('on 401 clears the stored login, remembers why, and notifies once', async () => {
    setLogin('stale', 'admin@example.com');
    answer(401, { code: 'UNAUTHORIZED', message: 'Session expired', details: null });
    answer(401, { code: 'UNAUTHORIZED', message: 'Session expired', details: null });
    const err = (await apiCall(audit).catch((e: unknown) => e)) as ApiError;
    await apiCall(audit).catch(() => undefined);
    expect(err.message).toBe('Authentication failed. Please log in again.');
    expect(getApiKey()).toBeNull();
    expect(localStorage.getItem('user_email')).toBeNull();
    expect(getSignOutReason()).toBe('Authentication failed. Please log in again.');
    expect(notificationsStore.getSnapshot().filter((n) => n.title === 'Signed out')).toHaveLength(1);
  });

  it('a 401 from the sign-in call itself does not touch the stored login', async () => {
    setLogin('other-tab-key', 'admin@example.com');
    answer(401, { code: 'UNAUTHORIZED', message: 'Invalid email or password.', details: null });
    const err = (await apiCall(authRoutes.login, { body: { email: 'a@b.co', password: 'wrong-pass' } }).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect(err.status).toBe(401);
    expect(getApiKey()).toBe('other-tab-key');
  });
});

describe('apiCallWithTotal and apiUpload', () => {
  it('reads X-Total-Count', async () => {
    answer(200, [{ email: 'a@example.com' }], { 'X-Total-Count': '1234' });
    const r = await apiCallWithTotal(list, { query: { limit: 1 } });
    expect(r.total).toBe(1234);
    expect(r.capped).toBe(false);
    expect(r.data).toHaveLength(1);
  });

  it('reads X-Total-Capped: the total is a floor', async () => {
    answer(200, [{ email: 'a@example.com' }], { 'X-Total-Count': '10000', 'X-Total-Capped': 'true' });
    const r = await apiCallWithTotal(list, { query: { limit: 1 } });
    expect(r).toMatchObject({ total: 10000, capped: true });
  });

  it('falls back to the array length without the header', async () => {
    answer(200, [{ email: 'a' }, { email: 'b' }]);
    expect((await apiCallWithTotal(list)).total).toBe(2);
  });

  it('uploads raw text with its content type', async () => {
    answer(200, { imported: 2 });
    await apiUpload(create, {}, 'source,destination\na@x.io,b@x.io\n', 'text/csv');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/index.php?path=mail%2Fusers%2Fadd');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('text/csv');
    expect(init.body).toBe('source,destination\na@x.io,b@x.io\n');
  });
});

describe('messages', () => {
  it('messageForStatus covers the catalogue', () => {
    expect(messageForStatus(401, 'x')).toBe('Authentication failed. Please log in again.');
    expect(messageForStatus(418, null)).toBe('Server Error: 418 - Unknown error');
  });

  it('errorMessage wraps anything thrown', () => {
    expect(errorMessage(new ApiError({ status: 404, message: 'nf' }))).toBe('nf');
    expect(errorMessage(new Error('boom'))).toBe('Client Error: boom');
    expect(errorMessage('weird')).toBe('An unexpected error occurred');
  });
});
