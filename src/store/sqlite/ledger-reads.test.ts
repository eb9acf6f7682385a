import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { cp, writePlaneRoot } from '../../../test/plane-root.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from './sqlite-store.js';

let store: SqliteStore;
let fileIds: Record<string, number[]>;

beforeAll(async () => {
  const root = writePlaneRoot(tempDir('hs-plane-'), [
    cp.sessionStart('SES-A', 0),
    cp.woPlanned('SES-A', 'WO-SES-A-001', 'classify', 1),
    cp.exchange('SES-A', 'WO-SES-A-001', { input: 10, output: 5 }, 2),
    cp.llmCall('SES-A', 'WO-SES-A-001', 10, 5, 2),
    cp.turn('SES-A', 1, 'hello', 'hi', 3),
    cp.sessionStart('SES-B', 3),
    cp.exchange('SES-B', 'WO-SES-B-001', { input: 1, output: 1 }, 4),
    // an entry that names no session (a contract-level entry): a ledger entry, in no session
    { ledger: 'governance', event_type: 'DISPATCH', submission_id: 'PRC-CLASSIFY-001', decision: 'OK', at: 5 },
    cp.exchange('SES-A', 'WO-SES-A-002', { input: 20, output: 7 }, 6),
  ]);
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  await ingestPaths(store, [root]);
  const ledgers = await store.rootLedgers(root);
  fileIds = Object.fromEntries(ledgers.map((l) => [l.ledger, l.files.map((f) => f.fileId)]));
});

describe('ledger reads', () => {
  it('pages ledger entries by type in ledger order, counting every match', async () => {
    const all = await store.ledgerEntries({ fileIds: fileIds.governance!, offset: 0, limit: 10 });
    expect(all.total).toBe(4);
    expect(all.entries.map((e) => [e.lineNumber, e.type, e.sessionId])).toEqual([
      [1, 'EXCHANGE', 'SES-A'],
      [2, 'EXCHANGE', 'SES-B'],
      [3, 'DISPATCH', null],
      [4, 'EXCHANGE', 'SES-A'],
    ]);
    const page = await store.ledgerEntries({ fileIds: fileIds.governance!, type: 'EXCHANGE', offset: 1, limit: 1 });
    expect(page.total).toBe(3);
    expect(page.entries.map((e) => e.lineNumber)).toEqual([2]);
    // pages past the middle are read backwards from the end: same rows, same order
    for (const [offset, limit] of [[3, 1], [3, 5], [2, 2], [1, 3]] as const) {
      const back = await store.ledgerEntries({ fileIds: fileIds.governance!, offset, limit });
      expect(back.entries.map((e) => e.lineNumber)).toEqual(all.entries.slice(offset, offset + limit).map((e) => e.lineNumber));
    }
    const mine = await store.ledgerEntries({ fileIds: fileIds.governance!, sessionId: 'SES-A', offset: 0, limit: 10 });
    expect(mine.entries.map((e) => e.lineNumber)).toEqual([1, 4]);
    expect(await store.ledgerEventTypes(fileIds.governance!)).toEqual([
      { type: 'DISPATCH', count: 1 },
      { type: 'EXCHANGE', count: 3 },
    ]);
  });

  it('returns exact lines by address and scans blocks in order', async () => {
    const [line] = await store.evidenceLines([{ fileId: fileIds.governance![0]!, lineNumber: 3 }]);
    expect(JSON.parse(line!.raw.toString('utf8')).event_type).toBe('DISPATCH');
    const seen: number[] = [];
    await store.scanEvidence(fileIds.governance!, (b) => {
      for (const l of b.lines) seen.push(l.lineNumber);
    });
    expect(seen).toEqual([1, 2, 3, 4]);
  });

  it('merges a timeline page in timestamp then ho2m > ho1m > governance order', async () => {
    const { total, events } = await store.sessionTimeline('SES-A', { offset: 0, limit: 100, descendants: true });
    expect(total).toBe(6);
    expect(events.map((e) => `${e.ledger}:${e.type}`)).toEqual([
      'ho2m:SESSION_START',
      'ho2m:WO_PLANNED',
      'ho1m:LLM_CALL',
      'governance:EXCHANGE',
      'ho2m:TURN_RECORDED',
      'governance:EXCHANGE',
    ]);
    const page = await store.sessionTimeline('SES-A', { offset: 2, limit: 2, descendants: true });
    expect(page.events.map((e) => e.type)).toEqual(['LLM_CALL', 'EXCHANGE']);
    expect(page.events[0]!.fileId).toBe(fileIds.ho1m![0]);
  });
});
