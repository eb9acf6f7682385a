// startHttpServer on a real loopback port: the URL it reports, the refusal to listen off loopback
// without a token, the Host check with the real port, and close() with a keep-alive client.

import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { startHttpServer } from './server.js';

let store: SqliteStore;
beforeAll(() => {
  store = new SqliteStore(join(tempDir('hs-http-server-'), 'h.db'));
});
afterAll(() => store.close());

function get(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('startHttpServer', () => {
  it('listens on a free loopback port and checks the Host against it', async () => {
    const server = await startHttpServer({ store, port: 0 });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const port = new URL(server.url).port;
      const res = await fetch(`${server.url}/api/sessions`, { keepalive: true });
      expect(res.status).toBe(200);
      expect(await get(`${server.url}/api/sessions`, `localhost:${port}`)).toBe(200);
      expect(await get(`${server.url}/api/sessions`, `localhost:${Number(port) + 1}`)).toBe(403);
      expect(await get(`${server.url}/api/sessions`, `attacker.example:${port}`)).toBe(403);
    } finally {
      await server.close();
    }
    await expect(fetch(`${server.url}/api/sessions`)).rejects.toThrow();
  });

  it('refuses to listen off loopback without a token, and listens with one', async () => {
    await expect(startHttpServer({ store, host: '0.0.0.0', port: 0 })).rejects.toMatchObject({ code: 'TOKEN_REQUIRED', message: expect.stringMatching(/Refusing to serve on 0\.0\.0\.0 without a token/) });
    await expect(startHttpServer({ store, host: '0.0.0.0', port: 0 })).rejects.toThrow(/Pass --token T/);
    const server = await startHttpServer({ store, host: '0.0.0.0', port: 0, token: 'tk' });
    try {
      const base = `http://127.0.0.1:${new URL(server.url).port}`;
      expect((await fetch(`${base}/api/sessions`)).status).toBe(401);
      expect((await fetch(`${base}/api/sessions`, { headers: { authorization: 'Bearer tk' } })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
