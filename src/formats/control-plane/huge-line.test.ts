// An entry too large to parse whole keeps its place, its session and its chain link.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionEntries } from '../../../bench/generators/control-plane-entries.js';
import { LedgerWriter } from '../../../bench/generators/control-plane-writer.js';
import { HUGE_LINE_BYTES } from '../../ingest/parse-file.js';
import { runImporter } from '../harness.js';
import { controlPlane } from './index.js';

const root = mkdtempSync(join(tmpdir(), 'hindsight-cp-huge-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('oversized ledger lines', () => {
  it('links the chain through a line too large to parse and attributes it', async () => {
    const e = new SessionEntries('SES-0000BEEF');
    const w = new LedgerWriter(join(root, 'HOT', 'ledger'), 'governance', undefined);
    const t0 = Date.UTC(2026, 1, 14, 10, 0, 0) * 1000;
    const wo = 'WO-SES-0000BEEF-001';
    w.append(e.dispatch('PRC-SYNTHESIZE-001'), t0, '00000001');
    const prompt = 'x'.repeat(HUGE_LINE_BYTES + 1024);
    w.append(e.exchange({ wo, contract: 'PRC-SYNTHESIZE-001', prompt, response: 'ok', dispatchId: 'LED-00000001', latencyMs: 812.5, contextHash: 'h', input: 10, output: 2 }), t0 + 1_500_000, '00000002');
    w.append(e.budgetDebit(wo, 10, 2, 100), t0 + 1_600_000, '00000003');
    w.close();

    const r = await runImporter(controlPlane, root);
    const kinds = r.defects.map((d) => `${d.kind}@${d.line}`);
    expect(kinds).toContain('oversized_line@2');
    expect(kinds).toContain('hash_unverified@2');
    expect(kinds.filter((k) => k.startsWith('hash_mismatch') || k.startsWith('previous_hash_mismatch'))).toEqual([]);
    const big = r.events.find((x) => x.lineNumber === 2)!;
    expect(big).toMatchObject({ type: 'EXCHANGE', sessionId: 'SES-0000BEEF', tsKey: '2026-02-14T10:00:01.500000000Z', ids: { entry: 'LED-00000002', workOrder: wo } });
    expect(big.usage).toMatchObject({ input: 10, output: 2, model: 'claude-sonnet-4-5-20250929' });
    expect(r.events.map((x) => x.lineNumber)).toEqual([1, 2, 3]);
  });
});
