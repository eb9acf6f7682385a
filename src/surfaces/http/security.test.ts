// The HTTP app's guards through app.request: bearer token, Host check, no CORS, same-origin
// POSTs, the body limit and the security headers on every kind of response.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { createHttpApp } from './app.js';
import { createAuthorizer } from '../access/authorize.js';
import { isLoopbackHost, loopbackHostCheck } from '../access/loopback.js';
import { tokenStoreFor } from '../access/tokens/open-tokens.js';

type Json = Record<string, any>;
const jsonOf = (res: Response) => res.json() as Promise<Json>;

let store: SqliteStore;
beforeAll(() => {
  store = new SqliteStore(join(tempDir('hs-http-sec-'), 'h.db'));
});
afterAll(() => store.close());

const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'";

function expectSecurityHeaders(res: Response, where: string): void {
  expect(res.headers.get('content-security-policy'), where).toBe(CSP);
  expect(res.headers.get('x-content-type-options'), where).toBe('nosniff');
  expect(res.headers.get('referrer-policy'), where).toBe('no-referrer');
  for (const [name] of res.headers) expect(name, where).not.toMatch(/^access-control-/);
}

describe('token', () => {
  it('is required on /api when set, compared exactly', async () => {
    const app = createHttpApp({ store, token: 's3cret' });
    const none = await app.request('/api/tools/list_sessions', { method: 'POST' });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await jsonOf(none)).toMatchObject({ status: 'error', code: 'UNAUTHORIZED' });
    for (const header of ['Bearer s3cre', 'Bearer s3cret2', 'Basic s3cret', 's3cret']) {
      const res = await app.request('/api/sessions', { headers: { authorization: header } });
      expect(res.status, header).toBe(401);
    }
    const ok = await app.request('/api/sessions', { headers: { authorization: 'Bearer s3cret' } });
    expect(ok.status).toBe(200);
    expect((await jsonOf(ok)).status).toBe('ok');
    const openapi = await app.request('/api/openapi.json');
    expect(openapi.status).toBe(401);
  });

  it('becomes needed once a team token is created, by this handle or another connection to the store', async () => {
    const db = join(tempDir('hs-http-open-'), 'h.db');
    const own = new SqliteStore(db);
    const other = new SqliteStore(db);
    try {
      const app = createHttpApp({ store: own, tokens: tokenStoreFor(own) });
      for (let i = 0; i < 2; i++) expect((await app.request('/api/sessions')).status).toBe(200);
      await tokenStoreFor(other).create({ user: 'ana', projects: ['p'], readOnly: false });
      expect((await app.request('/api/sessions')).status).toBe(401);
      const second = new SqliteStore(join(tempDir('hs-http-open-'), 'h.db'));
      try {
        const app2 = createHttpApp({ store: second, tokens: tokenStoreFor(second) });
        expect((await app2.request('/api/sessions')).status).toBe(200);
        await tokenStoreFor(second).create({ user: 'bo', projects: ['p'], readOnly: true });
        expect((await app2.request('/api/sessions')).status).toBe(401);
      } finally {
        await second.close();
      }
    } finally {
      await own.close();
      await other.close();
    }
  });

  it('is not needed for the viewer files', async () => {
    const app = createHttpApp({ store, token: 's3cret' });
    const res = await app.request('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('is decided by one function returning a principal or a refusal', async () => {
    expect(await createAuthorizer({})(undefined)).toEqual({ ok: true, principal: { kind: 'local' } });
    const authorize = createAuthorizer({ token: 't' });
    expect(await authorize('Bearer t')).toEqual({ ok: true, principal: { kind: 'admin' } });
    expect(await authorize('bearer   t')).toEqual({ ok: true, principal: { kind: 'admin' } });
    expect(await authorize('Bearer u')).toMatchObject({ ok: false, status: 401 });
    expect(await authorize(undefined)).toMatchObject({ ok: false, status: 401 });
  });
});

describe('Host header', () => {
  it('accepts only loopback names (and the port when known)', async () => {
    const app = createHttpApp({ store, allowedHost: loopbackHostCheck(() => 7718) });
    for (const host of ['localhost:7718', '127.0.0.1:7718', '[::1]:7718', 'LOCALHOST:7718']) {
      const res = await app.request('/api/sessions', { headers: { host } });
      expect(res.status, host).toBe(200);
    }
    for (const host of ['evil.example:7718', 'localhost:80', '127.0.0.1.nip.io:7718', '10.0.0.2:7718']) {
      const res = await app.request('/api/sessions', { headers: { host } });
      expect(res.status, host).toBe(403);
      expect(await jsonOf(res)).toMatchObject({ code: 'HOST_NOT_ALLOWED' });
      expectSecurityHeaders(res, host);
      const page = await app.request('/', { headers: { host } });
      expect(page.status, host).toBe(403);
    }
  });

  it('also accepts the loopback address the server is bound to', () => {
    const check = loopbackHostCheck(() => 9000, '127.0.0.2');
    expect(check('127.0.0.2:9000')).toBe(true);
    expect(check('127.0.0.3:9000')).toBe(false);
    expect(loopbackHostCheck(() => 9000, '::1')('[::1]:9000')).toBe(true);
  });

  it('knows loopback addresses', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.2', 'example.com', '128.0.0.1']) expect(isLoopbackHost(h), h).toBe(false);
  });
});

describe('cross-origin requests', () => {
  it('get no CORS grant, preflight included', async () => {
    const app = createHttpApp({ store });
    const preflight = await app.request('/api/tools/list_sessions', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expectSecurityHeaders(preflight, 'preflight');
    const sameOriginOptions = await app.request('/api/tools/list_sessions', { method: 'OPTIONS' });
    expect(sameOriginOptions.status).toBe(405);
    expectSecurityHeaders(sameOriginOptions, 'OPTIONS');
    const get = await app.request('/api/sessions', { headers: { origin: 'https://evil.example' } });
    expectSecurityHeaders(get, 'GET with Origin');
  });

  it('cannot POST from another origin, but the same origin can', async () => {
    const app = createHttpApp({ store });
    const cross = await app.request('/api/tools/list_sessions', {
      method: 'POST',
      headers: { origin: 'https://evil.example', host: 'localhost:7718' },
    });
    expect(cross.status).toBe(403);
    expect(await jsonOf(cross)).toMatchObject({ code: 'CROSS_ORIGIN' });
    const same = await app.request('/api/tools/list_sessions', {
      method: 'POST',
      headers: { origin: 'http://localhost:7718', host: 'localhost:7718' },
    });
    expect(same.status).toBe(200);
  });
});

describe('body limit', () => {
  it('answers 413 for a body over the limit, declared or streamed', async () => {
    const app = createHttpApp({ store, maxBodyBytes: 100 });
    const big = JSON.stringify({ query: 'x'.repeat(200) });
    const declared = await app.request('/api/tools/search_sessions', {
      method: 'POST',
      body: big,
      headers: { 'content-type': 'application/json', 'content-length': String(big.length) },
    });
    expect(declared.status).toBe(413);
    expect(await jsonOf(declared)).toMatchObject({ status: 'error', code: 'BODY_TOO_LARGE' });
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode('{"query":"xxxxxxxxxxxxxxxxxxxxxxxxx"}'));
        controller.close();
      },
    });
    const chunked = await app.request('/api/tools/search_sessions', {
      method: 'POST',
      body: stream,
      headers: { 'content-type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    // A length that is not a number bounds nothing: the body is counted as it streams.
    const bogus = await app.request('/api/tools/search_sessions', {
      method: 'POST',
      body: big,
      headers: { 'content-type': 'application/json', 'content-length': 'lots' },
    });
    expect(bogus.status).toBe(413);
    const small = await app.request('/api/tools/search_sessions', {
      method: 'POST',
      body: '{"query":"x"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(small.status).toBe(200);
  });
});

describe('security headers', () => {
  it('are on every response; no-store on /api only', async () => {
    const app = createHttpApp({ store });
    const cases: [string, RequestInit, number][] = [
      ['/', {}, 200],
      ['/app.js', {}, 200],
      ['/no-such-file.js', {}, 404],
      ['/', { method: 'POST' }, 405],
      ['/api/sessions', {}, 200],
      ['/api/openapi.json', {}, 200],
      ['/api/tools/nope', { method: 'POST' }, 404],
      ['/api/nothing', {}, 404],
    ];
    for (const [path, init, status] of cases) {
      const res = await app.request(path, init);
      expect(res.status, path).toBe(status);
      expectSecurityHeaders(res, path);
      expect(res.headers.get('cache-control'), path).toBe(path.startsWith('/api') ? 'no-store' : null);
    }
  });

  it('serve plain 404 text for a missing viewer file, never an envelope', async () => {
    const app = createHttpApp({ store });
    const res = await app.request('/../../etc/passwd');
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('Not found');
  });
});
