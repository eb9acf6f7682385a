import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, FIXTURES, tempDir } from '../../../test/helpers.js';
import { cp, writePlaneRoot } from '../../../test/plane-root.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { runTool } from '../tool.js';
import { exportSession, exportSessionTool, type ExportOptions } from './index.js';

type Entry = Record<string, any>;
let store: SqliteStore;
const call = (args: unknown) => runTool(exportSessionTool, args, { store }) as Promise<Record<string, any>>;

const CC = join(FIXTURES, 'claude-code', 'projects');
const BIG = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
const BIG_DIR = join(CC, '-home-USER-projects-spotter-worktrees-spotter-fum');
const AMP = 'f31d2334-3e59-4fd1-8a90-ee46c04cd0c2';
const AMP_DIR = join(FIXTURES, 'amplifier/normal/projects/-home-maya-src-acme-billing/sessions');
const CP_SESSION = 'SES-8ACD6A79';
const SECRET = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrSt';
const LONG = `${'é'.repeat(1500)} end`; // 3004 bytes: cut at 1 KB on a character boundary

async function lines(id: string, opts: ExportOptions = {}): Promise<string[]> {
  const out: string[] = [];
  for await (const line of exportSession(store, id, opts)) out.push(line);
  return out;
}
const replay = async (id: string, opts: ExportOptions = {}) => (await lines(id, { redact: false, ...opts })).map((l) => JSON.parse(l) as Entry);

/** Top-level Claude Code sessions of the fixture: id → its files (session file, then sub-agent files by name). */
function claudeSessions(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const slug of readdirSync(CC)) {
    for (const name of readdirSync(join(CC, slug)).filter((n) => n.endsWith('.jsonl')).sort()) {
      const id = name.slice(0, -'.jsonl'.length);
      const sub = join(CC, slug, id, 'subagents');
      const agents = statSync(join(CC, slug, id), { throwIfNoEntry: false })
        ? readdirSync(sub).filter((n) => n.endsWith('.jsonl')).sort().map((n) => join(sub, n))
        : [];
      out.set(id, [join(CC, slug, name), ...agents]);
    }
  }
  return out;
}
const jsonlOf = (file: string): Entry[] => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));

/** Texts a reader must find in the replay, in file order: human prompts (not wrappers, tool results, meta) and assistant text. */
function sourceTexts(rows: Entry[]): { r: string; text: string }[] {
  const out: { r: string; text: string }[] = [];
  for (const o of rows) {
    const content = o.message?.content;
    const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
    if (o.type === 'user' && !o.isMeta && !o.isCompactSummary) {
      for (const b of blocks) {
        const t = b.type === 'text' ? (b.text as string) : undefined;
        if (t !== undefined && !t.trim().startsWith('<') && !t.trim().startsWith('[Request interrupted') && t.trim() !== '') out.push({ r: 'user', text: t });
      }
    }
    if (o.type === 'assistant') for (const b of blocks) if (b.type === 'text') out.push({ r: 'assistant', text: b.text as string });
  }
  return out;
}

/** Replay entries grouped by the agent that produced them (ctx agent lines switch). */
function byAgent(entries: Entry[]): Map<string, Entry[]> {
  const out = new Map<string, Entry[]>([['main', []]]);
  let agent = 'main';
  for (const e of entries.slice(1)) {
    if (e.ctx === 'agent') agent = e.v;
    else if (!e.ctx) out.set(agent, [...(out.get(agent) ?? []), e]);
  }
  return out;
}

/** Whether each expected text is found, in order, among the replay's messages (a cut user text by its prefix). */
function missingInOrder(expected: { r: string; text: string }[], entries: Entry[]): string[] {
  const msgs = entries.filter((e) => typeof e.m === 'string');
  const missing: string[] = [];
  let i = 0;
  for (const want of expected) {
    const matches = (e: Entry) =>
      e.r === want.r &&
      (e.m === want.text || (e.cut !== undefined && want.text.startsWith(e.m) && Buffer.byteLength(e.m) + e.cut === Buffer.byteLength(want.text)));
    const at = msgs.findIndex((e, k) => k >= i && matches(e));
    if (at < 0) missing.push(`${want.r}: ${want.text.slice(0, 80)}`);
    else i = at + 1;
  }
  return missing;
}

beforeAll(async () => {
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  await ingestPaths(store, [
    copyFixture('claude-code'),
    copyFixture('control-plane/normal'),
    copyFixture('amplifier/normal'),
    writePlaneRoot(tempDir('hs-plane-'), [
      cp.sessionStart('SES-EXPORT01', 0),
      cp.turn('SES-EXPORT01', 1, LONG, `my key is ${SECRET}`, 1),
      cp.sessionEnd('SES-EXPORT01', 1, 2),
    ]),
  ]);
}, 120_000);

describe('export_session replay (real Claude Code transcripts)', () => {
  it('is at least 95% smaller than the source for every session over 1 MB', async () => {
    let big = 0;
    for (const [id, files] of claudeSessions()) {
      const source = files.reduce((n, f) => n + statSync(f).size, 0);
      const bytes = (await lines(id)).reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
      console.log(`replay ${id}: ${source} → ${bytes} bytes (${((100 * bytes) / source).toFixed(1)}%)`);
      if (source > 1_000_000) {
        big++;
        expect(bytes).toBeLessThanOrEqual(source * 0.05);
      }
    }
    expect(big).toBeGreaterThan(0);
  });

  it('keeps every user message and assistant text of the source, in order, per agent', async () => {
    let checked = 0;
    for (const [id, files] of claudeSessions()) {
      const groups = byAgent(await replay(id));
      const others = [...groups.entries()].filter(([k]) => k !== 'main').flatMap(([, v]) => v);
      for (const file of files) {
        const rows = jsonlOf(file);
        const agent = /agent-(.+)\.jsonl$/.exec(file)?.[1];
        // Inline sidechains (older layout) are sub-agent sessions of their own: compared with all sub-agent entries.
        const own = sourceTexts(rows.filter((o) => (agent !== undefined) === (o.isSidechain === true)));
        const target = agent !== undefined ? (groups.get(agent) ?? []) : (groups.get('main') ?? []);
        expect(missingInOrder(own, target), `${id} ${file}`).toEqual([]);
        checked += own.length;
        if (agent === undefined) {
          const inline = sourceTexts(rows.filter((o) => o.isSidechain === true));
          expect(missingInOrder(inline, others), `${id} inline sidechains`).toEqual([]);
          checked += inline.length;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('opens with a header line that parses', async () => {
    const [header] = await replay(BIG);
    expect(header).toMatchObject({ v: 1, session: BIG, format: 'claude-code', cwd: '/home/USER/projects/spotter-worktrees/spotter-fum' });
    expect(header!.started).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('summarises tools, flags thinking and merges sub-agents chronologically', async () => {
    const entries = await replay(BIG);
    const body = entries.slice(1);
    expect(body.some((e) => e.thinking === true && e.r === 'assistant')).toBe(true);
    const read = body.find((e) => e.tool_result === 'Read' && e.status === 'success');
    expect(read).toMatchObject({ r: 'user', size: expect.any(Number) });
    expect(body.find((e) => e.tool === 'Read')?.args.file).toMatch(/^\/home\/USER\//);
    expect(body.find((e) => e.tool_result === 'Bash')).toMatchObject({ exit: expect.any(Number), size: expect.any(Number) });
    expect(body.find((e) => e.tool_result === 'Grep' || e.tool_result === 'Glob')).toMatchObject({ count: expect.any(Number) });
    expect(body.find((e) => e.tool === 'Write')?.args).toMatchObject({ file: expect.any(String), size: expect.any(Number) });
    // No payload of a tool ever travels: the largest tool line stays small.
    expect(Math.max(...body.filter((e) => e.tool || e.tool_result).map((e) => JSON.stringify(e).length))).toBeLessThan(1200);
    expect(body.find((e) => e.r === 'agent')).toMatchObject({ agent: 'a7be2f0', task: expect.stringContaining('I need to understand') });
    expect(body.find((e) => e.r === 'agent_result')).toMatchObject({ agent: 'a7be2f0', status: 'completed', size: expect.any(Number) });
    const agents = body.filter((e) => e.ctx === 'agent').map((e) => e.v);
    expect(agents).toContain('a7be2f0');
    expect(agents).toContain('acompact-f46190');
    const times = body.map((e) => e.t).filter(Boolean);
    expect([...times].sort()).toEqual(times);
    // Without sub-agents: the launch stays, the sub-agent's own entries go.
    const alone = await replay(BIG, { includeSubagents: false });
    expect(alone.some((e) => e.ctx === 'agent')).toBe(false);
    expect(alone.some((e) => e.r === 'agent' && e.agent === 'a7be2f0')).toBe(true);
  });

  it('cuts user text over 1 KB and says how much was cut; redacts unless redact is false', async () => {
    const [, ...body] = (await lines('SES-EXPORT01')).map((l) => JSON.parse(l) as Entry);
    const user = body.find((e) => e.r === 'user')!;
    expect(Buffer.byteLength(user.m)).toBeLessThanOrEqual(1024);
    expect(LONG.startsWith(user.m)).toBe(true);
    expect(Buffer.byteLength(user.m) + user.cut).toBe(Buffer.byteLength(LONG));
    expect(body.find((e) => e.r === 'assistant')!.m).toBe('my key is [REDACTED:api_key]');
    expect((await replay('SES-EXPORT01')).find((e) => e.r === 'assistant')!.m).toBe(`my key is ${SECRET}`);
    expect((await lines('SES-EXPORT01', { format: 'jsonl' })).join('\n')).not.toContain(SECRET);
    expect((await lines('SES-EXPORT01', { format: 'markdown' })).join('\n')).not.toContain(SECRET);
  });
});

describe('export_session for Amplifier and Control Plane', () => {
  it('exports an Amplifier session: transcript messages in order, tools summarised, sub-agents merged', async () => {
    const entries = await replay(AMP);
    expect(entries[0]).toMatchObject({ v: 1, session: AMP, format: 'amplifier', cwd: '/home/maya/src/acme-billing' });
    const transcript = jsonlOf(join(AMP_DIR, AMP, 'transcript.jsonl'));
    const expected = transcript
      .filter((o) => o.role === 'user' && typeof o.content === 'string' && !o.content.trimStart().startsWith('<system-reminder>'))
      .map((o) => ({ r: 'user', text: o.content as string }));
    expect(expected.length).toBeGreaterThan(1);
    expect(missingInOrder(expected, byAgent(entries).get('main')!)).toEqual([]);
    expect(entries.find((e) => e.tool === 'bash')?.args.command).toEqual(expect.any(String));
    expect(entries.find((e) => e.tool_result === 'bash')).toMatchObject({ status: 'success', exit: 0 });
    expect(entries.some((e) => e.r === 'agent' && typeof e.task === 'string')).toBe(true);
    expect(entries.some((e) => e.ctx === 'agent' && String(e.v).endsWith('_foundation-zen-architect'))).toBe(true);
    expect(entries.some((e) => e.ctx === 'model')).toBe(true);
  });

  it('exports a Control Plane session with the documented mapping', async () => {
    const manifest = JSON.parse(readFileSync(join(FIXTURES, 'control-plane/normal/manifest.json'), 'utf8'));
    const row = manifest.session_table.find((s: Entry) => s.session_id === CP_SESSION);
    const entries = await replay(CP_SESSION);
    expect(entries[0]).toMatchObject({ v: 1, session: CP_SESSION, format: 'control-plane' });
    const users = entries.filter((e) => e.r === 'user' && typeof e.m === 'string');
    expect(users.length).toBe(row.turn_count);
    expect(users[0]!.m).toBe(row.first_user_message);
    expect(users.map((u) => u.turn)).toEqual(users.map((_, i) => i + 1));
    expect(entries.filter((e) => e.r === 'assistant' && typeof e.m === 'string').length).toBe(row.turn_count);
    const ho1m = jsonlOf(join(FIXTURES, 'control-plane/normal/HO1/ledger/ho1m.jsonl'));
    const toolCalls = ho1m.filter((o) => o.event_type === 'TOOL_CALL' && o.metadata?.provenance?.session_id === CP_SESSION);
    expect(entries.filter((e) => e.tool !== undefined).length).toBe(toolCalls.length);
    expect(entries.filter((e) => e.tool_result !== undefined).length).toBe(toolCalls.length);
    expect(entries.some((e) => e.r === 'agent' && /^WO-SES-8ACD6A79-\d+$/.test(e.agent))).toBe(true);
    expect(entries.some((e) => e.r === 'agent_result' && e.status === 'completed')).toBe(true);
    expect(entries.some((e) => e.ctx === 'model')).toBe(true);
    // Plumbing (dispatch, budget bookkeeping, shadow comparisons, LLM_CALL) leaves no line.
    const notes = entries.filter((e) => e.r === 'system').map((e) => String(e.msg));
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.filter((m) => /^(DISPATCH|BUDGET_DEBIT|BUDGET_ALLOCATE|PROJECTION_SHADOW_COMPARE|LLM call)\b/.test(m))).toEqual([]);
  });
});

describe('export_session markdown and jsonl', () => {
  it('renders markdown with turn headings, tool one-liners and marked sub-agents', async () => {
    const md = (await lines(BIG, { format: 'markdown', redact: false })).join('\n');
    expect(md.startsWith(`# Session ${BIG}`)).toBe(true);
    expect(md).toContain('## Turn 1');
    expect(md).toContain('Work on bead spotter-fum.');
    expect(md).toMatch(/^- tool `Read` file=\/home\/USER\//m);
    expect(md).toContain('> **Sub-agent a7be2f0**');
  });

  it('jsonl lines equal the source lines byte for byte (session file, then sub-agent files by name)', async () => {
    const files = claudeSessions().get(BIG)!;
    const source = files.flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l !== ''));
    expect(await lines(BIG, { format: 'jsonl', redact: false })).toEqual(source);
    expect(await lines(BIG, { format: 'jsonl', redact: false, includeSubagents: false })).toEqual(
      readFileSync(files[0]!, 'utf8').split('\n').filter((l) => l !== ''),
    );
    const plane = await lines(CP_SESSION, { format: 'jsonl', redact: false });
    const manifest = JSON.parse(readFileSync(join(FIXTURES, 'control-plane/normal/manifest.json'), 'utf8'));
    const counts = manifest.session_table.find((s: Entry) => s.session_id === CP_SESSION).ledger_events;
    expect(plane.length).toBe(counts.ho2m + counts.ho1m + counts.governance);
    const all = ['HO2/ledger/ho2m.jsonl', 'HO1/ledger/ho1m.jsonl', 'HOT/ledger/governance.jsonl'].flatMap((f) =>
      readFileSync(join(FIXTURES, 'control-plane/normal', f), 'utf8').split('\n'),
    );
    const rawSet = new Set(all);
    expect(plane.every((l) => rawSet.has(l))).toBe(true);
  });
});

describe('export_session tool', () => {
  it('pages by line with offset / max_bytes; pages join to the whole export', async () => {
    const whole = (await lines(BIG)).map((l) => `${l}\n`).join('');
    let content = '';
    let pages = 0;
    for (let offset: number | null = 0; offset !== null; pages++) {
      const r = await call({ session_id: BIG, offset, max_bytes: 20_000 });
      expect(r.status).toBe('ok');
      expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThanOrEqual(20_000);
      expect(r.bytes_total).toBe(Buffer.byteLength(whole));
      expect(r.truncated).toBe(r.has_more);
      content += r.content;
      offset = r.next_offset;
    }
    expect(pages).toBeGreaterThan(3);
    expect(content).toBe(whole);
    const tiny = await call({ session_id: BIG, max_bytes: 200 });
    expect(tiny).toMatchObject({ status: 'ok', returned_lines: 0, content: '', has_more: true, next_offset: 0, truncated: true });
    const end = await call({ session_id: BIG, offset: tiny.lines_total });
    expect(end).toMatchObject({ returned_lines: 0, has_more: false, next_offset: null, truncated: false });
  });

  it('answers SESSION_NOT_FOUND for an unknown session; rejects a bad format', async () => {
    expect(await call({ session_id: 'no-such-session' })).toMatchObject({ status: 'error', code: 'SESSION_NOT_FOUND' });
    await expect(lines('no-such-session')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    expect(await call({ session_id: BIG, format: 'html' })).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
  });

  it('is deterministic: the same call twice gives byte-identical JSON', async () => {
    for (const format of ['replay', 'markdown', 'jsonl']) {
      const a = JSON.stringify(await call({ session_id: BIG, format }));
      expect(JSON.stringify(await call({ session_id: BIG, format }))).toBe(a);
    }
  });
});
