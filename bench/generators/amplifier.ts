// Writes a synthetic Amplifier home (projects/<slug>/sessions/<id>/{metadata.json, transcript.jsonl, events.jsonl})
// with root sessions, spawned sub-agents and forks, shaped like the fixtures; streamed and deterministic per seed.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ChunkedWriter, Clock, Rng, writeCounted, type GenStats } from './prng.js';
import { TextGen } from './text.js';

export interface AmplifierOptions {
  targetBytes: number;
  seed: number;
  /** Project folders to spread root sessions over (default 4). */
  projects?: number;
  /** Optional cap on root sessions (their forks and sub-agents come on top). */
  sessions?: number;
}

/** `sessions` counts roots and forks; `subagents` the spawned `{span}-{span}_{agent}` sessions. */
export interface AmplifierStats extends GenStats {
  forks: number;
}

type Obj = Record<string, unknown>;

/** A pre-serialised JSON fragment spliced in verbatim (the per-session system prompt, tool list and history). */
class Raw {
  constructor(readonly json: string) {}
}

/** Python json.dumps layout (", " / ": " separators, ensure_ascii=False); sortKeys mirrors sort_keys=True. */
function py(v: unknown, sortKeys: boolean): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v !== 'object') return String(v);
  if (v instanceof Raw) return v.json;
  if (Array.isArray(v)) return `[${v.map((x) => py(x, sortKeys)).join(', ')}]`;
  const o = v as Obj;
  const keys = sortKeys ? Object.keys(o).sort() : Object.keys(o);
  return `{${keys.map((k) => `${JSON.stringify(k)}: ${py(o[k], sortKeys)}`).join(', ')}}`;
}

/** One session folder being written. `keep` buffers the transcript lines a planned fork will copy. */
interface Sess {
  id: string; parentId: string | null; traceId: string; span: string; depth: number; dir: string; model: string;
  events: ChunkedWriter; transcript: ChunkedWriter; system: Raw; tools: Raw;
  history: string[]; messages: number; turns: number; keep?: { upTo: number; lines: string[] };
}

const ROOTS = ['/home/maya/src/acme-billing', '/Users/jonas.weber/code/storefront-web', '/home/zoë/projets/café-menu',
  '/home/dev/amplifier-sandbox'];
const TOOLS = [['bash', 30], ['read_file', 30], ['grep', 12], ['edit_file', 10], ['glob', 6], ['write_file', 4],
  ['web_fetch', 3], ['todo', 3], ['delegate', 4]] as const;
const AGENTS = ['foundation:zen-architect', 'foundation:bug-hunter', 'foundation:explorer', 'design-intelligence:layout-architect'];
/** Events the redaction hook touches (they carry a hoisted `redaction` key); tool:* events are never redacted. */
const REDACTED = new Set(['session:start', 'session:end', 'prompt:submit', 'prompt:complete', 'provider:request', 'llm:request',
  'llm:response', 'content_block:end']);
const ROOT_SPAN = '0000000000000000';

export function generateAmplifier(home: string, opts: AmplifierOptions): AmplifierStats {
  return new AmplifierGen(home, opts).run();
}

class AmplifierGen {
  private readonly rng: Rng;
  private readonly text: TextGen;
  private readonly clock: Clock;
  private readonly stats: AmplifierStats = { files: 0, bytes: 0, lines: 0, sessions: 0, subagents: 0, forks: 0 };
  private cwd = '';

  constructor(private readonly home: string, private readonly opts: AmplifierOptions) {
    this.rng = new Rng(opts.seed ^ 0x5a5a5a5a); // its own stream, so it never mirrors a Claude Code corpus of the same seed
    this.text = new TextGen(this.rng);
    this.clock = new Clock(Date.UTC(2026, 5, 1) + this.rng.int(0, 20 * 86400) * 1000);
  }

  run(): AmplifierStats {
    const r = this.rng;
    const nProjects = Math.max(1, this.opts.projects ?? 4);
    for (let roots = 0; this.stats.bytes < this.opts.targetBytes && roots < (this.opts.sessions ?? Infinity); roots++) {
      const p = roots % nProjects;
      const base = ROOTS[p % ROOTS.length] as string;
      this.cwd = p < ROOTS.length ? base : `${base}-${Math.floor(p / ROOTS.length) + 1}`;
      // Amplifier's slug keeps dots and non-ASCII letters; only separators become '-'.
      const sessionsDir = join(this.home, 'projects', this.cwd.replace(/[/\\:]/g, '-'), 'sessions');
      // The first root always delegates and is forked, so even a small corpus holds every session kind.
      const first = roots === 0;
      const turns = first ? 3 : r.size(3, 0.7, 1, 20);
      const forkAt = turns >= 2 && (first || r.chance(0.2)) ? r.int(1, turns - 1) : 0;
      const s = this.open(sessionsDir, r.uuid(), null, null, ROOT_SPAN, 0);
      if (forkAt) s.keep = { upTo: forkAt, lines: [] };
      const created = this.clock.ms;
      this.event(s, 'session:start', { parent_id: null });
      for (let t = 0; t < turns; t++) {
        this.turn(s, this.prompt(), first && t === 0);
        // Stop at a turn boundary once the target is met; the session still ends cleanly.
        if (this.stats.bytes + s.events.bytes + s.transcript.bytes >= this.opts.targetBytes) break;
      }
      this.close(s, created, { bundle: 'bundle:foundation', name: this.text.title(), description: this.text.sentence(r.chance(0.4)) });
      this.stats.sessions++;
      if (s.keep) this.fork(sessionsDir, s);
      this.clock.tick(600_000, 30 * 3600_000, r);
    }
    return this.stats;
  }

  private open(sessionsDir: string, id: string, parentId: string | null, traceId: string | null, span: string, depth: number): Sess {
    const dir = join(sessionsDir, id);
    mkdirSync(dir, { recursive: true });
    const r = this.rng;
    // Every llm:request repeats the whole system prompt and tool list: that is what makes those lines 50–200 KB.
    const system = [{ cache_control: { type: 'ephemeral' }, text: this.text.prose(r.size(40000, 0.45, 15000, 100000)), type: 'text' }];
    const tools = TOOLS.map(([name]) => ({ description: this.text.prose(r.size(3000, 0.5, 500, 6000)),
      input_schema: { properties: {}, type: 'object' }, name }));
    const writer = (name: string): ChunkedWriter => new ChunkedWriter(join(dir, name), this.stats);
    return { id, parentId, traceId: traceId ?? id, span, depth, dir, model: r.pick(['claude-opus-4-6', 'claude-sonnet-4-5']),
      events: writer('events.jsonl'), transcript: writer('transcript.jsonl'),
      system: new Raw(py(system, true)), tools: new Raw(py(tools, true)), history: [], messages: 0, turns: 0 };
  }

  /** One user turn: prompt, an orchestrator loop of provider calls and tool calls, then completion events. */
  private turn(s: Sess, prompt: string, forceDelegate: boolean): void {
    const r = this.rng;
    const p = s.parentId;
    s.turns++;
    this.clock.tick(30_000, 600_000, r);
    this.say(s, { role: 'user', content: prompt, metadata: { timestamp: this.tsMs() } });
    this.event(s, 'prompt:submit', { parent_id: p, prompt });
    this.event(s, 'execution:start', { parent_id: p, prompt });
    const iterations = r.size(3, 0.6, 1, 12);
    let answer = '';
    for (let it = 1; it <= iterations; it++) {
      const calls = it === iterations ? [] : Array.from({ length: r.weighted([[1, 85], [2, 15]]) }, (_, i) => {
        const name: string = forceDelegate && it === 1 && i === 0 ? 'delegate' : r.weighted(TOOLS);
        return { name: name === 'delegate' && s.depth >= 2 ? 'grep' : name, id: `toolu_01${r.base62(22)}` };
      });
      const inputs = calls.map((c) => this.input(c.name));
      const blocks: Obj[] = [];
      if (r.chance(0.7)) {
        const signature = this.text.signature(r.size(600, 0.4, 200, 2000));
        blocks.push({ type: 'thinking', thinking: this.text.sentence(r.chance(0.1)), signature });
      }
      if (!calls.length || r.chance(0.4)) {
        blocks.push({ type: 'text', text: (answer = this.text.prose(r.size(300, 0.9, 20, 6000), r.chance(0.2))) });
      }
      this.provider(s, it, blocks, calls.map((c, i) => ({ type: 'tool_use', id: c.id, name: c.name, input: inputs[i] })));
      const entry: Obj = { role: 'assistant', content: [...blocks, ...calls.map((c, i) => ({ type: 'tool_call', id: c.id, name: c.name,
        input: inputs[i] }))] };
      if (calls.length) entry.tool_calls = calls.map((c, i) => ({ id: c.id, tool: c.name, arguments: inputs[i] }));
      entry.metadata = { timestamp: this.tsMs() };
      this.say(s, entry);
      const group = r.uuid();
      calls.forEach((c, i) => {
        const base = { parallel_group_id: group, parent_id: p, tool_call_id: c.id, tool_input: inputs[i], tool_name: c.name };
        this.event(s, 'tool:pre', base);
        const result = c.name === 'delegate' ? this.delegate(s, c.id, group, inputs[i] as Obj) : this.result(c.name);
        this.clock.tick(30, 8000, r);
        // Some failures surface as tool:error (lvl ERROR, hoisted error) instead of tool:post.
        if (result.success === false && r.chance(0.3)) {
          this.event(s, 'tool:error', base, { error: { msg: (result.error as Obj).message, type: 'RuntimeError' } });
        } else this.event(s, 'tool:post', { ...base, result });
        const content = py(result, true); // tool messages hold the result as a JSON string
        this.say(s, { role: 'tool', name: c.name, tool_call_id: c.id, content, metadata: { timestamp: this.tsMs() } });
      });
    }
    this.event(s, 'execution:end', { parent_id: p });
    // orchestrator:complete's turn_count counts LLM iterations, not user turns.
    this.event(s, 'orchestrator:complete', { orchestrator: 'loop-streaming', parent_id: p, turn_count: iterations },
      { status: 'success' });
    this.event(s, 'prompt:complete', { parent_id: p, prompt, response: answer });
  }

  /** provider:request → llm:request (the whole API request) → llm:response (usage, cost) → content_block events. */
  private provider(s: Sess, iteration: number, blocks: Obj[], toolUses: Obj[]): void {
    const r = this.rng;
    const p = s.parentId;
    const model = s.model;
    this.event(s, 'provider:request', { iteration, parent_id: p, provider: 'anthropic' });
    const raw = { max_tokens: 128000, messages: new Raw(`[${s.history.join(', ')}]`), model, system: s.system,
      thinking: { budget_tokens: 32000, type: 'enabled' }, tools: s.tools };
    this.event(s, 'llm:request', { has_system: true, interleaved_thinking: true, message_count: s.messages, model, parent_id: p,
      provider: 'anthropic', raw, thinking_budget: 32000, thinking_enabled: true });
    if (r.chance(0.03)) {
      this.event(s, 'provider:retry', { attempt: 1, delay: r.int(50, 400) / 100, error_type: 'RateLimitError', max_retries: 5, model,
        parent_id: p, provider: 'anthropic' });
    }
    const started = this.clock.ms;
    this.clock.tick(1500, 30_000, r);
    const content = [...blocks, ...toolUses];
    const [fresh, cacheWrite] = [r.int(1, 12), r.size(2000, 1, 0, 60000)];
    const cacheRead = iteration === 1 && s.turns === 1 ? 0 : r.size(40000, 0.6, 5000, 400000);
    const output = Math.round(py(content, false).length / 4) + r.int(5, 80);
    const cost = (fresh * 5 + output * 25 + cacheWrite * 6.25 + cacheRead * 0.5) / 1e6;
    // Amplifier's own usage: input_tokens includes cache reads, cost_usd is a string, cache_read_tokens only when used.
    const usage: Obj = { cache_write_tokens: cacheWrite, cost_usd: cost.toFixed(7).replace(/0+$/, ''), input_tokens: fresh + cacheRead,
      output_tokens: output };
    if (cacheRead) usage.cache_read_tokens = cacheRead;
    const apiUsage = { cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: cacheWrite },
      cache_creation_input_tokens: cacheWrite, cache_read_input_tokens: cacheRead, inference_geo: 'global', input_tokens: fresh,
      output_tokens: output, service_tier: 'standard' };
    const response = { content, id: `msg_01${r.base62(22)}`, model, role: 'assistant',
      stop_reason: toolUses.length ? 'tool_use' : 'end_turn', stop_sequence: null, type: 'message', usage: apiUsage };
    this.event(s, 'llm:response', { model, parent_id: p, provider: 'anthropic', raw: response, usage },
      { status: 'ok', duration_ms: this.clock.ms - started });
    // The provider's own summary repeats the token counts: a double-counting trap worth keeping.
    this.event(s, 'provider:response', { parent_id: p, provider: 'anthropic', usage: { input: fresh + cacheRead, output } });
    content.forEach((block, i) => {
      const at = { block_index: i, parent_id: p, total_blocks: content.length };
      this.event(s, 'content_block:start', { ...at, block_type: block.type, metadata: null });
      this.event(s, 'content_block:end', { ...at, block, usage: { ...usage, total_tokens: fresh + output } });
    });
    this.remember(s, { content, role: 'assistant' });
  }

  /** A spawned sub-agent: its own folder `{parent span}-{child span}_{agent}`, run inside the parent's tool call. */
  private delegate(parent: Sess, toolCallId: string, group: string, input: Obj): Obj {
    const r = this.rng;
    const agent = input.agent as string;
    const span = r.hex(16);
    const id = `${parent.span}-${span}_${agent.replace(/:/g, '-')}`;
    const common = { agent, parallel_group_id: group, parent_id: parent.parentId, parent_session_id: parent.id, sub_session_id: id,
      tool_call_id: toolCallId };
    this.event(parent, 'delegate:agent_spawned', { ...common, context_depth: 'recent', context_scope: 'conversation' });
    const s = this.open(join(parent.dir, '..'), id, parent.id, parent.traceId, span, parent.depth + 1);
    const created = this.clock.ms;
    this.event(s, 'session:start', { parent_id: parent.id });
    this.turn(s, input.instruction as string, false);
    this.event(parent, 'delegate:agent_completed', { ...common, success: true });
    this.close(s, created, { parent_id: parent.id, trace_id: parent.traceId, agent_name: agent, child_span: span,
      self_delegation_depth: parent.depth, config: { session: { orchestrator: { module: 'loop-streaming' } } } });
    this.stats.subagents++;
    const output = { agent, metadata: {}, response: this.text.sentence(), session_id: id, status: 'success', turn_count: s.turns };
    return { error: null, output, success: true };
  }

  /** A fork: a new uuid session copying the parent's transcript up to a turn, then (usually) resumed. */
  private fork(sessionsDir: string, parent: Sess): void {
    const r = this.rng;
    const keep = parent.keep as { upTo: number; lines: string[] };
    keep.upTo = Math.min(keep.upTo, parent.turns); // the parent may have stopped early at the byte target
    const s = this.open(sessionsDir, r.uuid(), null, null, ROOT_SPAN, 0);
    s.model = parent.model;
    for (const line of keep.lines) s.transcript.line(line);
    s.turns = keep.upTo;
    const created = this.clock.tick(60_000, 3600_000, r);
    // A never-resumed fork keeps an empty events.jsonl; only metadata.json links it to its parent.
    const resumed = r.chance(0.8);
    if (resumed) {
      this.event(s, 'session:resume', { parent_id: null });
      for (let t = r.int(1, 2); t > 0; t--) this.turn(s, this.prompt(), false);
    }
    this.close(s, created, { parent_id: parent.id, forked_from_turn: keep.upTo, forked_at: '', bundle: 'bundle:foundation' }, resumed);
    this.stats.sessions++;
    this.stats.forks++;
  }

  /** Ends a session: session:end, close both logs, then metadata.json (Amplifier writes it last). */
  private close(s: Sess, createdMs: number, extra: Obj, end = true): void {
    if (end) this.event(s, 'session:end', { parent_id: s.parentId });
    s.events.close();
    s.transcript.close();
    const created = this.tsUs(createdMs);
    if ('forked_at' in extra) extra.forked_at = created; // a fork is created at the moment it forks
    const meta = JSON.stringify({ session_id: s.id, created, ...extra, model: s.model, turn_count: s.turns,
      incremental: true, working_dir: this.cwd }, null, 2);
    writeCounted(join(s.dir, 'metadata.json'), meta, this.stats);
  }

  private input(name: string): Obj {
    const [r, x] = [this.rng, this.text];
    const file = `${this.cwd}/src/${x.ident()}.py`;
    switch (name) {
      case 'bash': return { command: `${r.pick(['uv run pytest -q', 'git status', 'rg -n', 'ls -la'])} ${x.ident()}` };
      case 'read_file': return { file_path: file };
      case 'write_file': return { content: x.code(r.size(1500, 0.8, 100, 20000)), file_path: file };
      case 'edit_file': return { file_path: file, new_string: x.code(r.size(200, 0.7, 10, 3000)), old_string: x.code(200) };
      case 'delegate': return { agent: r.pick(AGENTS), instruction: x.prose(r.size(400, 0.6, 80, 3000), r.chance(0.3)) };
      case 'web_fetch': return { url: `https://docs.example.org/${x.ident()}` };
      case 'todo': return { action: 'create', todos: [{ content: x.sentence(), status: 'pending' }] };
      default: return { pattern: x.ident(), path: this.cwd };
    }
  }

  private result(name: string): Obj {
    const [r, x] = [this.rng, this.text];
    if (r.chance(0.05)) {
      return { error: { message: `Path not found: ${this.cwd}/src/${x.ident()}_old.py` }, output: null, success: false };
    }
    const [n, na] = [r.size(500, 1.3, 20, 30000), r.chance(0.25)];
    const output = name === 'bash' ? { returncode: 0, stderr: '', stdout: x.code(n, na) }
      : name === 'read_file' ? { content: x.code(n, na), total_lines: r.int(10, 2000) } : { content: x.prose(n, na) };
    return { error: null, output, success: true };
  }

  private prompt(): string {
    return Array.from({ length: this.rng.int(1, 3) }, () => this.text.sentence(this.rng.chance(0.3))).join(' ');
  }

  /** Writes a transcript line (kept for a planned fork while inside the copied turns) and feeds the API history. */
  private say(s: Sess, entry: Obj): void {
    const line = py(entry, false);
    s.transcript.line(line);
    if (s.keep && s.turns <= s.keep.upTo) s.keep.lines.push(line);
    if (entry.role === 'user') this.remember(s, { content: entry.content, role: 'user' });
    // The API sees a tool message as a user turn holding a tool_result block.
    if (entry.role === 'tool') {
      this.remember(s, { content: [{ content: entry.content, tool_use_id: entry.tool_call_id, type: 'tool_result' }], role: 'user' });
    }
  }

  /** API-shaped history for llm:request; only a recent tail is kept, so memory stays flat in long sessions. */
  private remember(s: Sess, message: Obj): void {
    s.history.push(py(message, true));
    s.messages++;
    if (s.history.length > 12) s.history.splice(0, 4);
  }

  /** events.jsonl line: fixed head, hoisted keys (sorted), everything else under `data` with sorted keys. */
  private event(s: Sess, name: string, data: Obj, hoist: Obj = {}): void {
    this.clock.tick(1, 40, this.rng);
    const h: Obj = { ...hoist, session_id: s.id };
    if (REDACTED.has(name)) h.redaction = { applied: true, rules: ['secrets', 'pii-basic'] };
    const lvl = h.status === 'error' || 'error' in h || name.includes('error') ? 'ERROR' : 'INFO';
    const hoisted = Object.keys(h).sort().map((k) => `, ${JSON.stringify(k)}: ${py(h[k], true)}`).join('');
    s.events.line(`{"ts": "${this.tsNs()}", "lvl": "${lvl}", "schema": {"name": "amplifier.log", "ver": "1.0.0"}, ` +
      `"event": "${name}"${hoisted}, "data": ${py(data, true)}}`);
  }

  /** Transcript timestamps: milliseconds with an explicit +00:00. */
  private tsMs(): string {
    return `${this.clock.iso().slice(0, 23)}+00:00`;
  }

  /** Python isoformat with microseconds (metadata.json). */
  private tsUs(ms: number): string {
    return `${new Date(ms).toISOString().slice(0, 23)}${String(this.rng.int(0, 999)).padStart(3, '0')}+00:00`;
  }

  /** Nanosecond ISO as the logging hook writes it; the clock moves ≥ 1 ms per event, so order holds. */
  private tsNs(): string {
    return `${this.clock.iso().slice(0, 23)}${String(this.rng.int(0, 999999)).padStart(6, '0')}+00:00`;
  }
}
