import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers.js';
import { cp, writePlaneRoot, type PlaneEntry } from '../../test/plane-root.js';
import { ingestPaths } from '../ingest/ingest.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import type { LedgerEntryQuery, LedgerInfo, Store } from '../store/store.js';
import { resolveAndReadEntryLines } from './ledger-read-ahead.js';

let store: SqliteStore;

/** Thirty governance entries, rotated into several segment files. */
const thirty: PlaneEntry[] = Array.from({ length: 30 }, (_, i) => ({
  ...cp.exchange('SES-A', 'WO-SES-A-001', { input: 10 + i, output: 5, prompt: `prompt ${i + 1}` }, 10 + i),
  reason: `entry ${i + 1}`,
}));

beforeAll(async () => {
  const plane = writePlaneRoot(tempDir('hs-plane-'), [cp.sessionStart('SES-A', 0), ...thirty], { rotateBytes: 2000 });
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  await ingestPaths(store, [plane]);
});

/**
 * `store` seen through a view that logs the reads the read-ahead is about (the resolution's
 * rootLedgers, each page read with its files) and, while `hidden` holds file ids, leaves those
 * files out of the root's ledgers (as if they were ingested later).
 */
function watched(inner: SqliteStore, hidden: Set<number>): { view: Store; log: string[] } {
  const log: string[] = [];
  const view = new Proxy(inner, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === 'rootLedgers') {
        return async (root: string): Promise<LedgerInfo[]> => {
          log.push('rootLedgers');
          const ledgers = await target.rootLedgers(root);
          return ledgers.map((l) => ({ ...l, files: l.files.filter((f) => !hidden.has(f.fileId)) }));
        };
      }
      if (prop === 'ledgerEntryLines') {
        return async (q: LedgerEntryQuery) => {
          log.push(`page of ${q.fileIds.join(',')}`);
          return target.ledgerEntryLines(q);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as Store;
  return { view, log };
}

const governance = { ledger: 'governance' };
const read = (view: Store, offset: number) => resolveAndReadEntryLines(view, governance, { defaultLedger: 'governance' }, { offset, limit: 4 });
const reasons = (r: Awaited<ReturnType<typeof read>>) => r.entries.map((e) => JSON.parse(e.raw!.toString('utf8')).reason as string);

describe('resolveAndReadEntryLines', () => {
  it('reads the page of an address it resolved before beside the resolution, with the same answer', async () => {
    const { view, log } = watched(store, new Set());
    const first = await read(view, 0);
    const files = first.sel.fileIds.join(',');
    expect(first.sel.fileIds.length).toBeGreaterThan(1);
    // The first call must resolve before it can read; the next one (the next page) reads at once.
    expect(log).toEqual(['rootLedgers', `page of ${files}`]);
    log.length = 0;
    const next = await read(view, 4);
    expect(log).toEqual([`page of ${files}`, 'rootLedgers']);
    expect(reasons(next)).toEqual(['entry 5', 'entry 6', 'entry 7', 'entry 8']);
    expect({ total: next.total, entries: next.entries }).toEqual(await (async () => {
      const { view: fresh } = watched(store, new Set());
      const r = await read(fresh, 4);
      return { total: r.total, entries: r.entries };
    })());
  });

  it('reads again when the address now names other files, and answers from those', async () => {
    const files = (await store.rootLedgers((await store.listRoots())[0]!.path)).find((l) => l.ledger === 'governance')!.files.map((f) => f.fileId);
    const last = files[files.length - 1]!;
    const hidden = new Set([last]);
    const { view, log } = watched(store, hidden);
    const before = await read(view, 0);
    expect(before.sel.fileIds).not.toContain(last);
    // The last segment arrives: the early page (of the files known before) is left unused.
    hidden.clear();
    log.length = 0;
    const after = await read(view, 0);
    const stale = before.sel.fileIds.join(',');
    expect(log).toEqual([`page of ${stale}`, 'rootLedgers', `page of ${files.join(',')}`]);
    expect(after.sel.fileIds).toEqual(files);
    expect(after.total).toBe(30);
    expect(after.total).toBeGreaterThan(before.total);
    expect(reasons(after)).toEqual(['entry 1', 'entry 2', 'entry 3', 'entry 4']);
  });

  it('leaves a failed early read to the read that follows, and a failed resolution to its caller', async () => {
    let failPage = false;
    let failRoots = false;
    const base = watched(store, new Set()).view;
    const flaky = new Proxy(base, {
      get(target, prop) {
        if (prop === 'ledgerEntryLines' && failPage) {
          return async (q: LedgerEntryQuery) => {
            failPage = false; // only the early read fails
            throw new Error(`transient failure reading ${q.fileIds.length} files`);
          };
        }
        if (prop === 'listRoots' && failRoots) return async () => Promise.reject(new Error('roots unreadable'));
        return Reflect.get(target, prop, target);
      },
    }) as Store;
    await read(flaky, 0);
    failPage = true;
    expect(reasons(await read(flaky, 8))).toEqual(['entry 9', 'entry 10', 'entry 11', 'entry 12']);
    expect(failPage).toBe(false);
    // Both fail: the caller hears the resolution's error (the early read's is no unhandled rejection).
    failPage = failRoots = true;
    await expect(read(flaky, 0)).rejects.toThrow('roots unreadable');
    await new Promise((r) => setTimeout(r, 10));
  });
});
