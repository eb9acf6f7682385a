// The access rules on their own: which hosts count as loopback, bearer tokens, Host allow-list.

import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { authorize, checkHost, isLoopbackHost } from './access.js';

// Only `headers` is read: a plain object stands in for the request line's headers.
const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('isLoopbackHost', () => {
  it('accepts loopback names and addresses and nothing else', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'example.com', 'localhost.evil.com', '128.0.0.1']) {
      expect(isLoopbackHost(h), h).toBe(false);
    }
  });
});

describe('authorize', () => {
  it('lets everything through when no token is configured', () => {
    expect(authorize(request({}), undefined)).toEqual({ ok: true });
  });

  it('needs the exact bearer token when one is configured', () => {
    expect(authorize(request({ authorization: 'Bearer s3cret' }), 's3cret')).toEqual({ ok: true });
    expect(authorize(request({ authorization: 'bearer  s3cret ' }), 's3cret')).toEqual({ ok: true });
    const missing = authorize(request({}), 's3cret');
    expect(missing).toMatchObject({ ok: false, status: 401 });
    expect(!missing.ok && missing.message).toMatch(/needs a token.*Authorization: Bearer/);
    const wrong = authorize(request({ authorization: 'Bearer s3cre' }), 's3cret');
    expect(wrong).toMatchObject({ ok: false, status: 401 });
    expect(!wrong.ok && wrong.message).toMatch(/not the one/);
    expect(authorize(request({ authorization: 'Basic czNjcmV0' }), 's3cret')).toMatchObject({ ok: false, status: 401 });
  });
});

describe('checkHost', () => {
  it('on a loopback server, answers only requests addressed to a loopback name', () => {
    expect(checkHost(request({ host: '127.0.0.1:7437' }), '127.0.0.1')).toEqual({ ok: true });
    expect(checkHost(request({ host: 'localhost:80' }), '127.0.0.1')).toEqual({ ok: true });
    expect(checkHost(request({ host: '[::1]:7437' }), '::1')).toEqual({ ok: true });
    const rebound = checkHost(request({ host: 'attacker.example:7437' }), '127.0.0.1');
    expect(rebound).toMatchObject({ ok: false, status: 403 });
    expect(!rebound.ok && rebound.message).toContain('attacker.example');
    expect(checkHost(request({}), '127.0.0.1')).toMatchObject({ ok: false, status: 403 });
  });

  it('leaves Host alone on a server bound to another address (the token guards it)', () => {
    expect(checkHost(request({ host: 'hindsight.internal:7437' }), '0.0.0.0')).toEqual({ ok: true });
  });
});
