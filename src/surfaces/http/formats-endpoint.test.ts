// GET /api/formats: the formats this build reads, with their labels, for the viewer's filters.

import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { FORMATS } from '../../formats/registry.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { createHttpApp } from './app.js';

const store = new SqliteStore(join(tempDir('hs-formats-'), 'h.db'));
afterAll(() => store.close());

describe('GET /api/formats', () => {
  const app = createHttpApp({ store });

  it('lists every registered format in registry order with its label', async () => {
    const res = await app.request('/api/formats');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; formats: { id: string; label: string }[] };
    expect(body.status).toBe('ok');
    expect(body.formats.map((f) => f.id)).toEqual([...FORMATS]);
    for (const f of body.formats) expect(f.label.length, f.id).toBeGreaterThan(0);
  });

  it('answers other methods with 405 naming GET', async () => {
    const res = await app.request('/api/formats', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
  });

  it('sits behind the token like the rest of the API', async () => {
    const guarded = createHttpApp({ store, token: 'secret-token' });
    expect((await guarded.request('/api/formats')).status).toBe(401);
    const ok = await guarded.request('/api/formats', { headers: { authorization: 'Bearer secret-token' } });
    expect(ok.status).toBe(200);
  });
});
