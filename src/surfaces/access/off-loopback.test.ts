// Off loopback, a server needs a guard: the static token or the store's team tokens. Both servers
// refuse to start with neither, and start with team tokens alone (then every request needs one).

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { startHttpServer } from '../http/server.js';
import { startMcpHttpServer } from '../mcp/http.js';
import { tokenStoreFor } from './tokens/open-tokens.js';

describe('a server off loopback', () => {
  let store: SqliteStore;
  beforeAll(() => {
    store = new SqliteStore(join(tempDir('hs-off-loopback-'), 'h.db'));
  });
  afterAll(() => store.close());

  it('refuses to start without a static token or team tokens, and starts with team tokens', async () => {
    const tokens = tokenStoreFor(store);
    await expect(startHttpServer({ store, host: '0.0.0.0', tokens })).rejects.toMatchObject({ code: 'TOKEN_REQUIRED', message: expect.stringMatching(/Refusing to serve on 0\.0\.0\.0 without a token/) });
    await expect(startMcpHttpServer({ store, host: '0.0.0.0', port: 0, tokens })).rejects.toMatchObject({ code: 'TOKEN_REQUIRED' });

    const { token } = await tokens.create({ user: 'ana', projects: ['-a'], readOnly: false });
    const api = await startHttpServer({ store, host: '0.0.0.0', tokens });
    const mcp = await startMcpHttpServer({ store, host: '0.0.0.0', port: 0, tokens });
    try {
      const apiUrl = api.url.replace('0.0.0.0', '127.0.0.1');
      expect((await fetch(`${apiUrl}/api/sessions`)).status).toBe(401);
      const ok = await fetch(`${apiUrl}/api/sessions`, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ status: 'ok', count: 0 });
      const mcpUrl = mcp.url.replace('0.0.0.0', '127.0.0.1');
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      expect((await fetch(mcpUrl, { method: 'POST', headers, body })).status).toBe(401);
      expect((await fetch(mcpUrl, { method: 'POST', headers: { ...headers, authorization: `Bearer ${token}` }, body })).status).toBe(200);
    } finally {
      await api.close();
      await mcp.close();
    }
  });
});
