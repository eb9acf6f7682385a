// Writes a synthetic Claude Code config dir (projects/<slug>/<sessionId>.jsonl + subagents/agent-*.jsonl)
// shaped like 2.1.x transcripts and sized like a measured real corpus; streamed and deterministic per seed.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ChunkedWriter, Clock, Rng, writeCounted, type GenStats } from './prng.js';
import { TextGen } from './text.js';

export interface ClaudeCodeOptions {
  targetBytes: number;
  seed: number;
  /** Project folders to spread sessions over (default 6). */
  projects?: number;
  /** Optional cap: stop after projects × sessionsPerProject sessions even below targetBytes. */
  sessionsPerProject?: number;
}

type Obj = Record<string, unknown>;
type Weighted = readonly (readonly [string, number])[];
/** One transcript file: the main session, or a sub-agent sidechain echoed into its parent. `ctx` = context tokens. */
interface Thread { w: ChunkedWriter; last: string | null; model: string; ctx: number; agent?: Agent }
interface Agent { id: string; parent: Thread; taskId: string; prompt: string }
interface ToolOut { input: Obj; content: unknown; result: unknown; isError?: boolean }
interface Hooks { pre: number; post: number }

const ROOTS = ['/home/dev/projects/acme-billing', '/Users/jonas.weber/code/storefront_web', '/home/maya/src/ledger-api',
  '/srv/repos/search-service', '/Users/ana/dev/mobile-app', '/home/lee/oss/tiny-json', '/home/ci/work/infra.tf'];
const VERSIONS = ['2.1.38', '2.1.39', '2.1.41', '2.1.45'];
const PRE_HOOKS = ['${CLAUDE_PLUGIN_ROOT}/scripts/pre-tool-capture.sh', 'cd ${CLAUDE_PLUGIN_ROOT}/hooks && bun run ./guard.js',
  '${CLAUDE_PLUGIN_ROOT}/scripts/pre-commit-check.sh', '~/.claude/hooks/block-secrets.py'];
const POST_HOOKS = ['${CLAUDE_PLUGIN_ROOT}/scripts/tool-call-capture.sh', 'callback',
  '${CLAUDE_PLUGIN_ROOT}/scripts/post-tool-capture.sh'];
const MAIN_TOOLS: Weighted = [['Read', 30], ['Bash', 28], ['Edit', 12], ['Grep', 8], ['Glob', 6], ['Write', 4],
  ['TodoWrite', 4]];
const WITH_TASK: Weighted = [...MAIN_TOOLS, ['Task', 6]];
const AGENT_TOOLS: Weighted = [['Read', 40], ['Grep', 25], ['Glob', 15], ['Bash', 20]];
const SLUG_WORDS = ['drifting', 'tumbling', 'whisper', 'quiet', 'amber', 'falcon', 'mossy', 'river', 'lunar', 'copper'];
const COMPACT_INTRO = 'This session is being continued from a previous conversation that ran out of context. ' +
  'The summary below covers the earlier portion of the conversation.\n\n';

export function generateClaudeCode(configDir: string, opts: ClaudeCodeOptions): GenStats {
  return new ClaudeGen(configDir, opts).run();
}

class ClaudeGen {
  private readonly rng: Rng;
  private readonly text: TextGen;
  private readonly clock: Clock;
  private readonly stats: GenStats = { files: 0, bytes: 0, lines: 0, sessions: 0, subagents: 0 };
  private summaries = 0;
  private session = { id: '', dir: '', root: '', cwd: '', version: '', branch: '', slug: '', touched: [] as string[],
    hooks: { pre: 0, post: 0 } as Hooks };

  constructor(private readonly configDir: string, private readonly opts: ClaudeCodeOptions) {
    this.rng = new Rng(opts.seed);
    this.text = new TextGen(this.rng);
    // A seed-derived start in 2026, so corpora from different seeds do not share timestamps.
    this.clock = new Clock(Date.UTC(2026, 0, 5) + this.rng.int(0, 30 * 86400) * 1000);
  }

  run(): GenStats {
    const nProjects = Math.max(1, this.opts.projects ?? 6);
    const cap = this.opts.sessionsPerProject ? nProjects * this.opts.sessionsPerProject : Infinity;
    const leaves: (string | null)[] = new Array<string | null>(nProjects).fill(null);
    while (this.stats.bytes < this.opts.targetBytes && this.stats.sessions < cap) {
      const p = this.stats.sessions % nProjects;
      const base = ROOTS[p % ROOTS.length] as string;
      const root = p < ROOTS.length ? base : `${base}-${Math.floor(p / ROOTS.length) + 1}`;
      // Claude Code's slug: every non-alphanumeric character becomes '-' (lossy on purpose: '.', '_').
      const dir = join(this.configDir, 'projects', root.replace(/[^a-zA-Z0-9]/g, '-'));
      mkdirSync(dir, { recursive: true });
      leaves[p] = this.runSession(dir, root, leaves[p] ?? null);
      this.clock.tick(600_000, 20 * 3600_000, this.rng);
    }
    return this.stats;
  }

  /** One session file; returns its last uuid, which a later session's summary line may point at. */
  private runSession(dir: string, root: string, prevLeaf: string | null): string | null {
    const r = this.rng;
    const id = r.uuid();
    this.session = { id, dir: join(dir, id), root, cwd: root, version: r.pick(VERSIONS), touched: [],
      branch: r.chance(0.5) ? 'main' : `feat/${this.text.ident().toLowerCase()}`,
      slug: `${r.pick(SLUG_WORDS)}-${r.pick(SLUG_WORDS)}-${r.pick(SLUG_WORDS)}`,
      hooks: { pre: r.int(1, 3), post: r.int(1, 3) } }; // the project's hook settings: main thread and sub-agents alike
    // The very first turn shows every line kind (Task, /command, queue, /compact), so small corpora hold them all.
    const first = this.stats.sessions === 0;
    const t: Thread = { w: new ChunkedWriter(join(dir, `${id}.jsonl`), this.stats), last: null, ctx: 15000,
      model: r.weighted([['claude-opus-4-6', 6], ['claude-sonnet-4-5', 4]]) };
    const tools = first || r.chance(0.6) ? WITH_TASK : MAIN_TOOLS;
    this.stats.sessions++;
    // A resumed conversation opens with a summary of the previous one (no timestamp, ever); the first one is forced.
    if (prevLeaf && (!this.summaries++ || r.chance(0.3))) {
      t.w.line(JSON.stringify({ type: 'summary', summary: this.text.title(), leafUuid: prevLeaf }));
    }
    this.snapshot(t, r.uuid(), false);
    for (let i = r.int(1, 3); i > 0; i--) {
      this.put(t, 'progress', t.last, { data: { type: 'hook_progress', hookEvent: 'SessionStart', hookName: 'SessionStart:startup',
        command: r.pick(PRE_HOOKS) }, parentToolUseID: id, toolUseID: id }, 1, 9);
    }
    const turns = r.size(5, 0.7, 1, 30);
    for (let turn = 0; turn < turns; turn++) {
      this.turn(t, tools, first && turn === 0);
      // Stop at a turn boundary once the target is met: the file stays a complete, valid session.
      if (this.stats.bytes + t.w.bytes >= this.opts.targetBytes) break;
    }
    t.w.close();
    return t.last;
  }

  private turn(t: Thread, tools: Weighted, showcase: boolean): void {
    const r = this.rng;
    const s = this.session;
    const hooks = s.hooks;
    const startMs = this.clock.tick(20_000, 900_000, r);
    if (showcase || r.chance(0.05)) {
      const cmd = r.pick(['model', 'context', 'cost', 'mcp']);
      for (const content of [`<command-name>/${cmd}</command-name>\n<command-message>${cmd}</command-message>`,
        `<local-command-stdout>${this.text.sentence()}</local-command-stdout>`]) {
        this.put(t, 'system', t.last, { subtype: 'local_command', content, level: 'info', isMeta: false }, 0, 5);
      }
    }
    if (showcase || r.chance(0.04)) {
      t.w.line(JSON.stringify({ type: 'queue-operation', operation: 'enqueue', timestamp: this.clock.iso(), sessionId: s.id,
        content: this.text.sentence() }));
      this.clock.tick(100, 3000, r);
      t.w.line(JSON.stringify({ type: 'queue-operation', operation: 'remove', timestamp: this.clock.iso(), sessionId: s.id }));
    }
    if (r.chance(0.04)) s.cwd = s.cwd === s.root ? `${s.root}/src` : s.root; // a `cd`: cwd is not the project
    const text = r.chance(0.05) ? `${this.text.sentence()}\n\n\`\`\`\n${this.text.code(r.size(4000, 1, 500, 30000))}\n\`\`\``
      : Array.from({ length: r.int(1, 5) }, () => this.text.sentence(r.chance(0.25))).join(' ');
    const prompt = this.put(t, 'user', t.last, { message: { role: 'user', content: text },
      thinkingMetadata: { maxThinkingTokens: 31999 }, todos: [], permissionMode: r.pick(['default', 'acceptEdits', 'plan']) });
    this.snapshot(t, prompt.uuid as string, true);
    const rounds = r.size(4, 0.8, 0, 25);
    for (let i = 0; i < rounds || (showcase && i === 0); i++) this.round(t, tools, showcase && i === 0);
    this.response(t, []);
    if (r.chance(0.4)) {
      this.put(t, 'system', t.last, { subtype: 'stop_hook_summary', hookCount: hooks.post,
        hookInfos: POST_HOOKS.slice(0, hooks.post).map((command) => ({ command })), hookErrors: [], preventedContinuation: false,
        stopReason: '', hasOutput: true, level: 'suggestion', toolUseID: r.uuid() }, 5, 400);
    }
    if (r.chance(0.8)) {
      this.put(t, 'system', t.last, { subtype: 'turn_duration', durationMs: this.clock.ms - startMs, isMeta: false }, 1, 50);
    }
    if (showcase || (t.ctx > 150_000 && r.chance(0.7))) this.compact(t);
  }

  /** One API round trip: an assistant response with tool calls, then per call its hooks, progress and result. */
  private round(t: Thread, tools: Weighted, forceTask: boolean): void {
    const r = this.rng;
    const hooks = this.session.hooks;
    const calls = Array.from({ length: r.weighted([[1, 80], [2, 15], [3, 5]]) }, (_, i) => {
      const name = forceTask && i === 0 ? 'Task' : r.weighted(tools);
      return { name, id: `toolu_01${r.base62(22)}`, out: name === 'Task' ? null : this.tool(name) };
    });
    const prompt = calls.some((c) => !c.out) ? this.text.prose(r.size(500, 0.6, 120, 3000), r.chance(0.3)) : '';
    const taskInput = { description: this.text.title(), prompt, subagent_type: r.pick(['Explore', 'general-purpose', 'Plan']) };
    const uses = this.response(t, calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, caller: { type: 'direct' },
      input: c.out?.input ?? taskInput })));
    calls.forEach((c, i) => {
      const hook = (hookEvent: string, command: string): void => {
        this.put(t, 'progress', t.last, { data: { type: 'hook_progress', hookEvent, hookName: `${hookEvent}:${c.name}`, command },
          parentToolUseID: c.id, toolUseID: c.id }, 0, 30);
      };
      for (let h = 0; h < hooks.pre; h++) hook('PreToolUse', PRE_HOOKS[h] as string);
      const out = c.out ?? this.subagent(t, c.id, prompt);
      for (let k = c.name === 'Bash' ? r.int(0, 3) : 0, sec = 1; k > 0; k--, sec++) {
        this.put(t, 'progress', t.last, { data: { type: 'bash_progress', output: '', fullOutput: '', elapsedTimeSeconds: sec,
          totalLines: 0, timeoutMs: 120000 }, toolUseID: `bash-progress-${sec - 1}`, parentToolUseID: c.id }, 1000, 1000);
      }
      this.clock.tick(50, c.name === 'Bash' ? 20_000 : 1500, r);
      for (let h = 0; h < hooks.post; h++) hook('PostToolUse', POST_HOOKS[h] as string);
      const block: Obj = { tool_use_id: c.id, type: 'tool_result', content: out.content };
      if (out.isError) block.is_error = true;
      // The result's parent is the tool_use line, not the hook lines in between (as Claude Code writes it).
      this.mirror(t, this.put(t, 'user', uses[i] ?? t.last, { message: { role: 'user', content: [block] },
        toolUseResult: out.result, sourceToolAssistantUUID: uses[i] }, 1, 5));
      t.ctx += typeof out.content === 'string' ? out.content.length >> 2 : 1500;
    });
  }

  /** One API response the 2.1.x way: a line per content block sharing id/requestId, usage repeated, output growing. */
  private response(t: Thread, toolUses: Obj[]): string[] {
    const r = this.rng;
    const blocks: Obj[] = [];
    if (r.chance(0.25)) blocks.push({ type: 'thinking', thinking: this.text.prose(r.size(400, 1, 40, 12000), r.chance(0.1)),
      signature: this.text.signature(r.size(400, 0.5, 120, 3000)) });
    if (r.chance(toolUses.length ? 0.25 : 1)) {
      blocks.push({ type: 'text', text: this.text.prose(r.size(240, 1.1, 2, 8000), r.chance(0.25)) });
    }
    blocks.push(...toolUses);
    const id = `msg_01${r.base62(22)}`;
    const requestId = `req_011C${r.base62(20)}`;
    const cc = r.size(1500, 1, 0, 40000);
    const e5 = t.model === 'claude-opus-4-6' ? 0 : cc;
    const early = r.int(1, 30);
    const final = Math.max(early, Math.round(JSON.stringify(blocks).length / 4) + r.int(5, 60));
    this.clock.tick(1500, 12_000, r);
    const uuids = blocks.map((b, i) => {
      const usage = { input_tokens: r.int(1, 8), cache_creation_input_tokens: cc, cache_read_input_tokens: t.ctx,
        cache_creation: { ephemeral_5m_input_tokens: e5, ephemeral_1h_input_tokens: cc - e5 },
        output_tokens: i === blocks.length - 1 ? final : early, service_tier: 'standard', inference_geo: 'not_available' };
      const line = this.put(t, 'assistant', t.last, { message: { model: t.model, id, type: 'message', role: 'assistant',
        content: [b], stop_reason: null, stop_sequence: null, usage }, requestId }, 20, 900);
      this.mirror(t, line);
      return line.uuid as string;
    });
    t.ctx += cc + final;
    return uuids.slice(blocks.length - toolUses.length);
  }

  /** A Task call: the sub-agent's own sidechain file (new layout + meta.json), echoed into the parent. */
  private subagent(parent: Thread, taskId: string, prompt: string): ToolOut {
    const r = this.rng;
    const id = `a${r.hex(6)}`;
    const dir = join(this.session.dir, 'subagents');
    mkdirSync(dir, { recursive: true });
    const meta = { agentType: r.pick(['Explore', 'general-purpose']), description: this.text.title(), toolUseId: taskId };
    writeCounted(join(dir, `agent-${id}.meta.json`), JSON.stringify(meta), this.stats);
    const t: Thread = { w: new ChunkedWriter(join(dir, `agent-${id}.jsonl`), this.stats), last: null, ctx: 12000,
      model: r.pick(['claude-haiku-4-5-20251001', 'claude-sonnet-4-5']), agent: { id, parent, taskId, prompt } };
    const start = this.clock.ms;
    this.mirror(t, this.put(t, 'user', null, { message: { role: 'user', content: prompt } }, 5, 50));
    const rounds = r.size(7, 0.6, 1, 30);
    for (let i = 0; i < rounds; i++) this.round(t, AGENT_TOOLS, false);
    this.response(t, []);
    t.w.close();
    this.stats.subagents++;
    const report = [{ type: 'text', text: this.text.prose(r.size(2500, 0.7, 300, 20000), r.chance(0.3)) }];
    const usage = { input_tokens: 0, cache_creation_input_tokens: r.int(500, 5000), cache_read_input_tokens: t.ctx,
      output_tokens: r.int(300, 4000), service_tier: 'standard',
      cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 } };
    return { input: {}, content: report, result: { status: 'completed', prompt, agentId: id, content: report,
      totalDurationMs: this.clock.ms - start, totalTokens: t.ctx + usage.output_tokens, totalToolUseCount: rounds, usage } };
  }

  /** Parent-side agent_progress copy of a sub-agent message, usage included (90%: not every message is echoed). */
  private mirror(t: Thread, line: Obj): void {
    const a = t.agent;
    if (!a || (line.parentUuid !== null && !this.rng.chance(0.9))) return;
    const msg = line.message as Obj;
    const inner: Obj = { type: line.type, message: typeof msg.content === 'string'
      ? { role: 'user', content: [{ type: 'text', text: msg.content }] } : msg, uuid: line.uuid, timestamp: line.timestamp };
    if (line.requestId) inner.requestId = line.requestId;
    this.put(a.parent, 'progress', a.parent.last, { data: { message: inner, normalizedMessages: [], type: 'agent_progress',
      prompt: a.prompt, agentId: a.id }, toolUseID: `agent_${(msg.id as string | undefined) ?? (line.uuid as string)}`,
    parentToolUseID: a.taskId }, 1, 3);
  }

  /** Input and result shapes per tool. Sizes are heavy-tailed: file contents make the big lines. */
  private tool(name: string): ToolOut {
    const r = this.rng;
    const x = this.text;
    const file = `${this.session.cwd}/src/${x.ident()}${r.pick(['.ts', '.py', '.md', '.json'])}`;
    // A mixture: mostly small outputs plus a band of whole-file reads, which make the p99 (~24 KB) lines.
    const n = r.chance(0.08) ? r.size(20000, 0.7, 5000, 78000) : r.size(500, 1.8, 30, 60000);
    // Big payloads almost always hold some non-ASCII (real corpus: 14% of lines carry 58% of bytes).
    const na = r.chance(n > 2000 ? 0.97 : 0.12);
    switch (name) {
      case 'Read': {
        const body = x.code(n, na);
        const startLine = r.chance(0.7) ? 1 : r.int(40, 900);
        const numLines = body.split('\n').length;
        return { input: { file_path: file }, content: x.numbered(body, startLine), result: { type: 'text',
          file: { filePath: file, content: body, numLines, startLine, totalLines: startLine + numLines + r.int(0, 300) } } };
      }
      case 'Bash': {
        const input = { command: `${r.pick(['npm test --', 'git diff', 'rg -n', 'pytest -q', 'cargo build'])} ${x.ident()}`,
          description: x.title() };
        const stdout = r.chance(0.5) ? x.code(n, na) : x.prose(n, na);
        const failed = r.chance(0.08); // a failed command: is_error, and toolUseResult is a bare string
        if (failed) return { input, content: `Exit code 1\n${stdout}`, isError: true, result: `Error: Exit code 1\n${stdout}` };
        return { input, content: stdout, result: { stdout, stderr: '', interrupted: false, isImage: false, noOutputExpected: false } };
      }
      case 'Write': {
        this.session.touched.push(file);
        const content = x.code(n, na);
        return { input: { file_path: file, content }, content: `File created successfully at: ${file}`,
          result: { type: 'create', filePath: file, content, structuredPatch: [], originalFile: null } };
      }
      case 'Edit': {
        this.session.touched.push(file);
        const oldString = x.code(r.size(200, 0.8, 10, 3000));
        const [newString, at] = [x.code(r.size(260, 0.8, 10, 4000), na), r.int(1, 400)];
        const [oldLines, newLines] = [oldString.split('\n'), newString.split('\n')];
        return { input: { file_path: file, old_string: oldString, new_string: newString, replace_all: false },
          content: `The file ${file} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n` +
            x.numbered(newString, at),
          result: { filePath: file, oldString, newString, originalFile: x.code(n, na), replaceAll: false, userModified: false,
            structuredPatch: [{ oldStart: at, oldLines: oldLines.length, newStart: at, newLines: newLines.length,
              lines: [...oldLines.map((l) => `-${l}`), ...newLines.map((l) => `+${l}`)] }] } };
      }
      case 'Grep': {
        const hits = x.code(r.size(150, 1.3, 0, 30000), na).split('\n');
        const content = hits.map((l, i) => `${file}:${i * 7 + 3}:${l}`).join('\n');
        return { input: { pattern: x.ident(), path: this.session.cwd, output_mode: 'content' }, content,
          result: { mode: 'content', numFiles: r.int(1, 9), filenames: [], content, numLines: content.split('\n').length } };
      }
      case 'Glob': {
        const filenames = Array.from({ length: r.size(5, 1, 0, 300) }, () => `${this.session.cwd}/src/${x.ident()}.ts`);
        return { input: { pattern: '**/*.ts' }, content: filenames.join('\n') || 'No files found',
          result: { filenames, durationMs: r.int(3, 900), numFiles: filenames.length, truncated: false } };
      }
      default: { // TodoWrite
        const todos = Array.from({ length: r.int(2, 7) }, () => ({ content: x.title(), status: r.pick(['pending', 'completed']),
          activeForm: x.title() }));
        return { input: { todos }, content: 'Todos have been modified successfully.',
          result: { oldTodos: todos.slice(1), newTodos: todos } };
      }
    }
  }

  /** Compaction (auto near the context limit, else a manual /compact) starts a new root linked by logicalParentUuid. */
  private compact(t: Thread): void {
    const r = this.rng;
    this.put(t, 'system', null, { logicalParentUuid: t.last, subtype: 'compact_boundary', content: 'Conversation compacted',
      isMeta: false, level: 'info', compactMetadata: { trigger: t.ctx > 150_000 ? 'auto' : 'manual', preTokens: t.ctx } },
    1000, 30_000);
    const content = COMPACT_INTRO + this.text.prose(r.size(6000, 0.5, 1500, 30000));
    this.put(t, 'user', t.last, { message: { role: 'user', content }, isVisibleInTranscriptOnly: true, isCompactSummary: true }, 1, 2);
    t.ctx = r.int(18_000, 32_000);
  }

  /** file-history-snapshot lines carry no uuid/sessionId and their timestamp sits inside `snapshot`. */
  private snapshot(t: Thread, messageId: string, update: boolean): void {
    const tracked: Obj = {};
    [...new Set(this.session.touched)].slice(-12).forEach((f, i) => {
      tracked[f] = { backupFileName: `${this.rng.hex(16)}@v${i + 1}`, version: i + 1, backupTime: this.clock.iso() };
    });
    t.w.line(JSON.stringify({ type: 'file-history-snapshot', messageId, snapshot: { messageId, trackedFileBackups: tracked,
      timestamp: this.clock.iso() }, isSnapshotUpdate: update && this.session.touched.length > 0 }));
  }

  /** Writes one chained line (common fields, then `fields`, then uuid/timestamp) after advancing the clock. */
  private put(t: Thread, type: string, parentUuid: string | null, fields: Obj, lo = 0, hi = 0): Obj {
    if (hi > 0) this.clock.tick(lo, hi, this.rng);
    const s = this.session;
    const line: Obj = { parentUuid, isSidechain: t.agent !== undefined, userType: 'external', cwd: s.cwd, sessionId: s.id,
      version: s.version, gitBranch: s.branch };
    if (t.agent) line.agentId = t.agent.id;
    Object.assign(line, { slug: s.slug, type }, fields, { uuid: this.rng.uuid(), timestamp: this.clock.iso() });
    t.w.line(JSON.stringify(line));
    t.last = line.uuid as string;
    return line;
  }
}
