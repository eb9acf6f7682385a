// A Control Plane ledger read live under a session filter, in a file bigger than one live range
// (source.ts RANGE) that holds none of the session's entries: the file is skipped, and its
// descriptor closed once, on its last range. It used to be closed on every range, so the second
// close failed (EBADF) or closed whatever file had been given the number meanwhile.

import { closeSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { cp, writePlaneRoot } from '../../../test/plane-root.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { runTool } from '../tool.js';
import { grepJsonl } from './index.js';
import { RANGE } from './source.js';

describe('grep_jsonl on a live ledger over one range, filtered to a session with no entry in it', () => {
  it('answers (nothing from that file) and closes its descriptor once, leaving other descriptors alone', async () => {
    const big = 'x'.repeat(64 * 1024);
    const entries = [cp.sessionStart('SES-A', 0), cp.sessionStart('SES-B', 1), cp.turn('SES-B', 1, 'needle?', 'needle!', 2)];
    const copies = Math.ceil((2.5 * RANGE) / big.length);
    for (let i = 0; i < copies; i++) entries.push(cp.exchange('SES-A', 'WO-SES-A-001', { input: 1, output: 1, prompt: `needle ${big}` }, 3 + i));
    const plane = writePlaneRoot(tempDir('hs-plane-'), entries);
    expect(statSync(join(plane, 'HOT/ledger/governance.jsonl')).size).toBeGreaterThan(2 * RANGE);
    const store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    await ingestPaths(store, [plane]);

    // A file opened by someone else meanwhile must survive the search.
    const bystander = openSync(join(plane, 'HO2/ledger/ho2m.jsonl'), 'r');
    try {
      const r = (await runTool(grepJsonl, { ledger: 'governance', session_id: 'SES-B', pattern: 'needle' }, { store })) as Record<string, any>;
      expect(r).toMatchObject({ status: 'ok', source: 'governance', count: 0 });
      const all = (await runTool(grepJsonl, { ledger: 'governance', session_id: 'SES-A', pattern: 'needle', limit: 1 }, { store })) as Record<string, any>;
      expect(all).toMatchObject({ status: 'ok', count: copies });
      expect(() => statSync(`/proc/self/fd/${bystander}`)).not.toThrow();
    } finally {
      closeSync(bystander);
      await store.close();
    }
  });
});
