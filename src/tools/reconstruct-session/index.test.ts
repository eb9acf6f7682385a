import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, FIXTURES, tempDir } from '../../../test/helpers.js';
import { cp, writePlaneRoot, type PlaneEntry } from '../../../test/plane-root.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { runTool } from '../tool.js';
import { reconstructSession } from './index.js';

type Row = {
  timestamp: string | null;
  source: string;
  event_type: string;
  kind: string;
  actor: string | null;
  turn_number: number | null;
  wo_id: string | null;
  session_id: string;
  file: string;
  line_number: number;
  summary: string;
  payload: Record<string, any>;
};

let store: SqliteStore;
let edgeRoot: string;
const call = (args: unknown) => runTool(reconstructSession, args, { store }) as Promise<Record<string, any>>;

/** Every row of a timeline, page by page (the largest page and byte budget). */
async function allRows(args: Record<string, unknown>): Promise<Row[]> {
  const rows: Row[] = [];
  for (let offset = 0; ; ) {
    const r = await call({ ...args, offset, limit: 2000, max_bytes: 10_000_000 });
    expect(r.status).toBe('ok');
    expect(r.truncated).toBeUndefined();
    rows.push(...(r.timeline as Row[]));
    if (r.next_offset === null) return rows;
    offset = r.next_offset;
  }
}

const S = 'SES-RECON001';
const WO = `WO-${S}-001`;
// Marker words: compact output must contain none of them, full output shows them by flag.
const PROMPT = 'You are the admin agent. Marker prompt-aardvark: classify the request.';
const RESPONSE = 'Marker response-bison: the invoices are in HOT/ledger.';
const USER = 'where are my invoices? marker user-cormorant';
const ANSWER = 'They are in HOT/ledger. marker answer-dugong';
const TEXT_MARKERS = ['prompt-aardvark', 'response-bison', 'user-cormorant', 'answer-dugong'];

const seedSession: PlaneEntry[] = [
  cp.sessionStart(S, 0),
  cp.woPlanned(S, WO, 'synthesize', 1),
  cp.exchange(S, WO, { input: 500, output: 200, prompt: PROMPT, response: RESPONSE }, 2),
  cp.llmCall(S, WO, 500, 200, 2),
  // One instant in all three ledgers, written governance first: merged ho2m > ho1m > governance.
  cp.budgetDebit(S, WO, 500, 200, 3),
  cp.toolCall(S, WO, 'list_files', true, 3),
  cp.qualityGate(S, WO, true, 3),
  cp.woCompleted(S, WO, 3.5),
  cp.turn(S, 1, USER, ANSWER, 4),
  cp.sessionEnd(S, 1, 5),
];

const pageSession: PlaneEntry[] = [
  cp.sessionStart('SES-PAGE0001', 0),
  ...Array.from({ length: 49 }, (_, i) => cp.woPlanned('SES-PAGE0001', `WO-SES-PAGE0001-${String(i + 1).padStart(3, '0')}`, 'classify', i + 1)),
];

const SECRET = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrSt';
const secretSession: PlaneEntry[] = [
  cp.sessionStart('SES-SECRET01', 0),
  cp.turn('SES-SECRET01', 1, `my key is ${SECRET}`, 'noted', 1),
];

beforeAll(async () => {
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  edgeRoot = copyFixture('control-plane/edge');
  await ingestPaths(store, [
    writePlaneRoot(tempDir('hs-plane-'), seedSession),
    writePlaneRoot(tempDir('hs-plane-'), pageSession),
    writePlaneRoot(tempDir('hs-plane-'), secretSession),
    edgeRoot,
    copyFixture('claude-code'),
    copyFixture('amplifier/normal'),
  ]);
}, 60_000);

describe('TestReconstructSession', () => {
  it('test_reconstruct_chronological_order: merges 3 ledgers by time, then ho2m > ho1m > governance, then entry id', async () => {
    const r = await call({ session_id: S });
    expect(r.status).toBe('ok');
    const rows = r.timeline as Row[];
    expect(rows.map((x) => [x.source, x.event_type])).toEqual([
      ['ho2m', 'SESSION_START'],
      ['ho2m', 'WO_PLANNED'],
      ['ho1m', 'LLM_CALL'],
      ['governance', 'EXCHANGE'],
      ['ho2m', 'WO_QUALITY_GATE'],
      ['ho1m', 'TOOL_CALL'],
      ['governance', 'BUDGET_DEBIT'],
      ['ho1m', 'WO_COMPLETED'],
      ['ho2m', 'TURN_RECORDED'],
      ['ho2m', 'SESSION_END'],
    ]);
    expect(rows[0]!.timestamp).toBe('2026-02-17T14:30:00.000Z');
    expect(rows[4]!.timestamp).toBe(rows[6]!.timestamp);
    const times = rows.map((x) => x.timestamp!);
    expect([...times].sort()).toEqual(times);
    expect(rows[8]).toMatchObject({ actor: 'user', turn_number: 1, session_id: S, file: 'HO2/ledger/ho2m.jsonl' });
    expect(rows[3]).toMatchObject({ actor: 'gateway', wo_id: WO, file: 'HOT/ledger/governance.jsonl', line_number: 1 });
  });

  it('test_reconstruct_chronological_order (edge fixture): identical timestamps follow the manifest merge order, with real segment files and lines', async () => {
    const manifest = JSON.parse(readFileSync(join(FIXTURES, 'control-plane/edge/manifest.json'), 'utf8'));
    const tie = manifest.defects.find((d: { kind: string }) => d.kind === 'identical_timestamps');
    const rows = await allRows({ session_id: tie.session_id });
    const tied = rows.filter((x) => tie.expected_merge_order.includes(x.payload.entry_id));
    expect(tied.map((x) => x.payload.entry_id)).toEqual(tie.expected_merge_order);
    for (const w of tie.entries_in_write_order) {
      expect(tied.find((x) => x.payload.entry_id === w.entry_id)).toMatchObject({ source: w.source, file: w.file, line_number: w.line });
    }
    // Every row cites its own file (rotated segment or active file) and that file's physical line.
    const texts = new Map<string, string[]>();
    for (const row of rows) {
      if (!texts.has(row.file)) texts.set(row.file, readFileSync(join(edgeRoot, row.file), 'utf8').split('\n'));
      expect(texts.get(row.file)![row.line_number - 1]).toContain(`"id": "${row.payload.entry_id}"`);
    }
    expect([...texts.keys()].filter((f) => /-\d{8}-\d{6}\.jsonl$/.test(f)).length).toBe(3);
    const table = manifest.session_table.find((s: { session_id: string }) => s.session_id === tie.session_id);
    const bySource: Record<string, number> = {};
    for (const row of rows) bySource[row.source] = (bySource[row.source] ?? 0) + 1;
    expect(bySource).toEqual(table.ledger_events);
  });

  it('test_reconstruct_includes_source: every row names its ledger', async () => {
    const rows = (await call({ session_id: S })).timeline as Row[];
    for (const row of rows) expect(['ho2m', 'ho1m', 'governance']).toContain(row.source);
    expect(new Set(rows.map((x) => x.source)).size).toBe(3);
  });

  it('test_reconstruct_compact_mode: no prompt or response text anywhere, sizes and facts instead', async () => {
    const r = await call({ session_id: S });
    const json = JSON.stringify(r);
    for (const marker of TEXT_MARKERS) expect(json).not.toContain(marker);
    const rows = r.timeline as Row[];
    const turn = rows.find((x) => x.event_type === 'TURN_RECORDED')!;
    expect(turn.summary).toBe(`Turn 1 recorded (user ${USER.length} chars, response ${ANSWER.length} chars)`);
    expect(turn.payload).toEqual({ entry_id: 'LED-00000009', decision: 'RECORDED', response_chars: ANSWER.length });
    const exchange = rows.find((x) => x.event_type === 'EXCHANGE')!;
    expect(exchange.payload).toMatchObject({ decision: 'SUCCESS', input_tokens: 500, output_tokens: 200, model: 'claude-sonnet-4-5' });
    expect(rows.find((x) => x.event_type === 'WO_PLANNED')!.payload).toMatchObject({ wo_type: 'synthesize' });
    expect(rows.find((x) => x.event_type === 'WO_QUALITY_GATE')!.payload).toMatchObject({ decision: 'ACCEPT', gate: 'accept' });
  });

  it('test_reconstruct_full_mode: with include_prompts, prompt and response are present', async () => {
    const r = await call({ session_id: S, verbosity: 'full', include_prompts: true });
    const rows = r.timeline as Row[];
    const exchange = rows.find((x) => x.event_type === 'EXCHANGE')!;
    expect(exchange.payload.metadata).toMatchObject({ prompt: PROMPT, response: RESPONSE, input_tokens: 500 });
    expect(exchange.payload).toMatchObject({ submission_id: 'PRC-SYNTHESIZE-001', decision: 'SUCCESS', reason: 'Exchange completed' });
    expect(exchange.payload.omitted).toBeUndefined();
    const turn = rows.find((x) => x.event_type === 'TURN_RECORDED')!;
    expect(turn.payload.metadata).toMatchObject({ user_message: USER, response: ANSWER, turn_number: 1 });
    // The source's own timestamp string stays in the payload.
    expect(turn.payload.timestamp).toBe('2026-02-17T14:30:04+00:00');
  });

  it('full mode without include_prompts keeps responses and drops the prompt, saying how big it was', async () => {
    const r = await call({ session_id: S, verbosity: 'full' });
    expect(JSON.stringify(r)).not.toContain('prompt-aardvark');
    const exchange = (r.timeline as Row[]).find((x) => x.event_type === 'EXCHANGE')!;
    expect(exchange.payload.metadata.response).toBe(RESPONSE);
    expect(exchange.payload.metadata).not.toHaveProperty('prompt');
    expect(exchange.payload.omitted).toEqual({ 'metadata.prompt': Buffer.byteLength(PROMPT) });
    const turn = (r.timeline as Row[]).find((x) => x.event_type === 'TURN_RECORDED')!;
    expect(turn.payload.metadata).toMatchObject({ user_message: USER, response: ANSWER });
  });

  it('test_reconstruct_pagination: 50 events, limit=10 gives the first 10 and the next offset', async () => {
    const r = await call({ session_id: 'SES-PAGE0001', limit: 10 });
    expect(r).toMatchObject({ status: 'ok', event_count: 50, count: 50, returned: 10, limit: 10, offset: 0, has_more: true, next_offset: 10 });
    expect((r.timeline as Row[])[0]!.event_type).toBe('SESSION_START');
    const whole = (await call({ session_id: 'SES-PAGE0001', limit: 50, max_bytes: 1_000_000 })).timeline as Row[];
    const pages: Row[] = [];
    for (let offset = 0; offset < 50; offset += 10) pages.push(...((await call({ session_id: 'SES-PAGE0001', limit: 10, offset })).timeline as Row[]));
    expect(pages).toEqual(whole);
    expect(await call({ session_id: 'SES-PAGE0001', limit: 10, offset: 40 })).toMatchObject({ returned: 10, has_more: false, next_offset: null });
    expect(await call({ session_id: 'SES-PAGE0001', limit: 10, offset: 60 })).toMatchObject({ returned: 0, event_count: 50, next_offset: null });
    for (const limit of [0, -1, 2001, 'x']) {
      const bad = await call({ session_id: 'SES-PAGE0001', limit });
      expect(bad).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
      expect(bad.error).toContain('1 to 2000');
    }
  });

  it('test_reconstruct_max_bytes_cap: a budget smaller than one row gives zero rows, truncated', async () => {
    const r = await call({ session_id: S, max_bytes: 100 });
    expect(r).toMatchObject({ status: 'ok', truncated: true, returned: 0, event_count: 10, timeline: [] });
    const cut = await call({ session_id: S, max_bytes: 2500 });
    expect(cut.truncated).toBe(true);
    expect(cut.returned).toBeGreaterThan(0);
    expect(cut.returned).toBeLessThan(10);
    expect(cut.next_offset).toBe(cut.returned);
    expect(Buffer.byteLength(JSON.stringify(cut))).toBeLessThanOrEqual(2500);
    expect(cut.timeline).toEqual((await call({ session_id: S })).timeline.slice(0, cut.returned));
  });

  it('answers SESSION_NOT_FOUND for an unknown session (never ok with zero events)', async () => {
    expect(await call({ session_id: 'SES-NOPE' })).toMatchObject({ status: 'error', code: 'SESSION_NOT_FOUND' });
    expect(await call({})).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
  });

  it('include_tool_payloads false leaves tool arguments and results out, with their sizes', async () => {
    const full = await call({ session_id: S, verbosity: 'full' });
    const withPayload = (full.timeline as Row[]).find((x) => x.event_type === 'TOOL_CALL')!;
    expect(withPayload.payload.metadata).toMatchObject({ arguments: { path: 'HOT/kernel' }, result: { files: ['a.py', 'b.py'] } });
    const r = await call({ session_id: S, verbosity: 'full', include_tool_payloads: false });
    const tool = (r.timeline as Row[]).find((x) => x.event_type === 'TOOL_CALL')!;
    expect(tool.payload.metadata).not.toHaveProperty('arguments');
    expect(tool.payload.metadata).not.toHaveProperty('result');
    expect(tool.payload.omitted).toEqual({
      'metadata.arguments': JSON.stringify({ path: 'HOT/kernel' }).length,
      'metadata.result': JSON.stringify({ files: ['a.py', 'b.py'] }).length,
    });
    expect(tool.payload).toMatchObject({ tool_name: 'list_files', tool_status: 'ok' });
    expect(tool.summary).toBe('Tool call list_files: ok');
    expect(withPayload.summary).toContain('path=HOT/kernel');

    // Claude Code: tool_use input and tool_result content go, their blocks stay.
    const cc = await allRows({ session_id: '491e126e-1e71-469c-ade2-fcc8af567c74', verbosity: 'full', include_tool_payloads: false });
    const calls = cc.filter((x) => x.kind === 'tool_call');
    const results = cc.filter((x) => x.kind === 'tool_result');
    expect(calls.length).toBeGreaterThan(0);
    expect(results.length).toBeGreaterThan(0);
    for (const c of calls) {
      expect(c.payload.block).not.toHaveProperty('input');
      expect(c.summary).toMatch(/^Tool call /);
    }
    // Sizes are listed for what was there (an empty input is not worth a line).
    expect(calls.filter((c) => c.payload.omitted?.['block.input'] > 0).length).toBeGreaterThan(calls.length / 2);
    for (const t of results) expect(t.payload.block).not.toHaveProperty('content');
    const ccFull = await allRows({ session_id: '491e126e-1e71-469c-ade2-fcc8af567c74', verbosity: 'full' });
    expect(ccFull.find((x) => x.kind === 'tool_call')!.payload.block.input).toBeDefined();
  });

  it('Claude Code: sub-agent rows are interleaved in time order, each naming its ledger and sub-agent session', async () => {
    const parent = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
    const rows = await allRows({ session_id: parent });
    const sources = new Set(rows.map((x) => x.source));
    expect([...sources].sort()).toEqual(['agent-a7be2f0', 'agent-acompact-f46190', 'transcript']);
    for (const row of rows) {
      const expected = row.source === 'transcript' ? parent : `${parent}:${row.source.slice('agent-'.length)}`;
      expect(row.session_id).toBe(expected);
      expect(row.file.startsWith(row.source === 'transcript' ? `projects/` : `projects/-home-USER-projects-spotter-worktrees-spotter-fum/${parent}/subagents/${row.source}.jsonl`)).toBe(true);
    }
    const times = rows.map((x) => x.timestamp).filter((t): t is string => t !== null);
    expect([...times].sort()).toEqual(times);
    // Interleaved, not appended: an agent row sits between two transcript rows.
    const agentAt = rows.findIndex((x) => x.source === 'agent-a7be2f0');
    const lastAgentAt = rows.map((x) => x.source).lastIndexOf('agent-a7be2f0');
    expect(rows.slice(0, agentAt).some((x) => x.source === 'transcript')).toBe(true);
    expect(rows.slice(lastAgentAt).some((x) => x.source === 'transcript')).toBe(true);

    const own = await call({ session_id: parent, include_subagents: false, limit: 1 });
    const ownRows = await allRows({ session_id: parent, include_subagents: false });
    expect(new Set(ownRows.map((x) => x.source))).toEqual(new Set(['transcript']));
    expect(own.event_count).toBe(ownRows.length);
    expect(own.event_count).toBe(rows.filter((x) => x.source === 'transcript').length);
  });

  it('Claude Code compact rows carry no message text; full rows carry the content block and usage', async () => {
    const id = '55604662-cf2a-4331-851a-ec234028f8ca';
    const compact = await allRows({ session_id: id });
    expect(JSON.stringify(compact)).not.toContain('mix phx.server doesnt seem to start');
    const prompt = compact.find((x) => x.kind === 'user_message' && x.turn_number === 1 && !x.payload.non_human)!;
    expect(prompt.summary).toBe(`User message (${'mix phx.server doesnt seem to start'.length} chars)`);
    // Claude Code's interruption marker is kept as written: it is how the session ended.
    expect(compact.some((x) => x.summary.startsWith('[Request interrupted by user'))).toBe(true);
    const full = await allRows({ session_id: id, verbosity: 'full' });
    const fullPrompt = full.find((x) => x.line_number === prompt.line_number)!;
    expect(fullPrompt.payload.block).toEqual({ type: 'text', text: 'mix phx.server doesnt seem to start' });
    const thinking = full.find((x) => x.kind === 'thinking')!;
    expect(typeof thinking.payload.block.thinking).toBe('string');
    expect(thinking.payload.block).not.toHaveProperty('signature');
    const withUsage = full.find((x) => x.payload.usage !== undefined)!;
    expect(withUsage.payload).toMatchObject({ model: 'claude-opus-4-6', usage: { output_tokens: expect.any(Number) } });
    expect(withUsage.payload.usage_key).toBe(`${withUsage.payload.message_id}:${withUsage.payload.request_id}`);
  });

  it('Amplifier: full mode drops llm:request bodies unless include_prompts; sub-agent sessions are merged in', async () => {
    const id = 'f31d2334-3e59-4fd1-8a90-ee46c04cd0c2';
    const expected = JSON.parse(readFileSync(join(FIXTURES, 'amplifier/normal/expected.json'), 'utf8')).sessions[id];
    const compact = await allRows({ session_id: id });
    const json = JSON.stringify(compact);
    for (const prompt of expected.user_prompts as string[]) expect(json).not.toContain(prompt);
    expect(new Set(compact.map((x) => x.session_id))).toEqual(
      new Set([id, '0000000000000000-72a41438bce83941_foundation-zen-architect', '72a41438bce83941-f8678fb288dd2206_foundation-bug-hunter']),
    );
    const full = await allRows({ session_id: id, verbosity: 'full', include_subagents: false });
    const request = full.find((x) => x.event_type === 'llm:request')!;
    expect(request.payload.data).not.toHaveProperty('raw');
    expect(request.payload.data).toMatchObject({ model: 'claude-opus-4-8' });
    expect(request.payload.omitted['data.raw']).toBeGreaterThan(1000);
    const user = full.find((x) => x.source === 'transcript' && x.kind === 'user_message')!;
    expect(user.payload.content).toBe(expected.user_prompts[0]);
    const withPrompts = await allRows({ session_id: id, verbosity: 'full', include_subagents: false, include_prompts: true });
    expect(withPrompts.find((x) => x.event_type === 'llm:request')!.payload.data.raw.messages).toBeDefined();
  });

  it('answers in the shape its output schema declares', async () => {
    for (const args of [
      { session_id: S },
      { session_id: S, verbosity: 'full', include_prompts: true },
      { session_id: S, max_bytes: 100 },
      { session_id: '8463c716-a2ea-4c14-9efa-87158ebd9f20', verbosity: 'full', limit: 50 },
    ]) {
      const r = JSON.parse(JSON.stringify(await call(args)));
      expect(() => reconstructSession.output.parse(r)).not.toThrow();
    }
  });

  it('is deterministic: the same call twice gives byte-identical JSON', async () => {
    for (const args of [
      { session_id: S, verbosity: 'full', include_prompts: true },
      { session_id: '8463c716-a2ea-4c14-9efa-87158ebd9f20', offset: 100, limit: 300, verbosity: 'full' },
    ]) {
      expect(JSON.stringify(await call(args))).toBe(JSON.stringify(await call(args)));
    }
  });

  it('redacts secrets in summaries and payloads unless redact is false', async () => {
    const r = await call({ session_id: 'SES-SECRET01', verbosity: 'full' });
    const json = JSON.stringify(r);
    expect(json).not.toContain(SECRET);
    const turn = (r.timeline as Row[]).find((x) => x.event_type === 'TURN_RECORDED')!;
    expect(turn.payload.metadata.user_message).toBe('my key is [REDACTED:api_key]');
    expect(turn.summary).toContain('[REDACTED:api_key]');
    const raw = await call({ session_id: 'SES-SECRET01', verbosity: 'full', redact: false });
    expect((raw.timeline as Row[]).find((x) => x.event_type === 'TURN_RECORDED')!.payload.metadata.user_message).toBe(`my key is ${SECRET}`);
  });
});
