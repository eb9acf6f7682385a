// Writes a synthetic OpenCode data folder (~/.local/share/opencode) as OpenCode itself lays it out:
//
// - `opencode.db` (OpenCode 1.x): a real SQLite database in WAL mode with the table definitions of
//   OpenCode 1.18 (dumped from sqlite_master of a real install): `session` rows with their columns,
//   `message` and `part` rows whose JSON sits in `data` without the ids the columns hold (as
//   OpenCode's drizzle schema stores them), and the credential tables (`account`, `control_account`,
//   `credential`, `session_share`) — filled with `secret` when asked, so tests can prove they are
//   never read.
// - `storage/` (before 1.0): `session/<projectID>/<sessionID>.json`, `message/<sessionID>/<messageID>.json`,
//   `part/<messageID>/<partID>.json` and `project/<projectID>.json`, each one document written with
//   JSON.stringify(value, null, 2) as OpenCode's Storage.write did, with the ids inside.
//
// `layout: 'both'` writes what an upgraded install holds: every session in the database and about
// half of them also left behind in `storage/` (OpenCode copies them into the database and keeps
// the files). Sessions hold user prompts, assistant steps (step-start, reasoning, text, tool calls
// with completed or failed state, step-finish) with the message tokens {total, input, output,
// reasoning, cache {read, write}} and a cost that is often 0, `task` sub-agent sessions (parent_id),
// and at the end one session still streaming and one the user aborted. Deterministic per seed.

import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Rng, type GenStats } from './prng.js';
import { TextGen } from './text.js';

export interface OpenCodeOptions {
  seed: number;
  /** Root sessions to write (sub-agents come on top); default 6. */
  sessions?: number;
  /** Keep adding root sessions until this many bytes of row JSON are written (bench corpora). */
  targetBytes?: number;
  /** Where sessions go: the database, the older storage/ folder, or both (default 'db'). */
  layout?: 'db' | 'storage' | 'both';
  /** Written into every credential table and column; never part of any session. */
  secret?: string;
  /** First message time (ms); default 2026-01-02T09:00:00Z. */
  startMs?: number;
}

export interface OpenCodeStats extends GenStats {
  messages: number;
  parts: number;
}

type Obj = Record<string, unknown>;

/** OpenCode 1.18.31's tables, from sqlite_master of a real install (only the ones a session touches, plus credentials). */
const SCHEMA = [
  'CREATE TABLE `account` ( `id` text PRIMARY KEY, `email` text NOT NULL, `url` text NOT NULL, `access_token` text NOT NULL, `refresh_token` text NOT NULL, `token_expiry` integer, `time_created` integer NOT NULL, `time_updated` integer NOT NULL )',
  'CREATE TABLE `control_account` ( `email` text NOT NULL, `url` text NOT NULL, `access_token` text NOT NULL, `refresh_token` text NOT NULL, `token_expiry` integer, `active` integer NOT NULL, `time_created` integer NOT NULL, `time_updated` integer NOT NULL, CONSTRAINT `control_account_pk` PRIMARY KEY(`email`, `url`) )',
  'CREATE TABLE `credential` ( `id` text PRIMARY KEY, `integration_id` text, `label` text NOT NULL, `value` text NOT NULL, `connector_id` text, `method_id` text, `active` integer, `time_created` integer NOT NULL, `time_updated` integer NOT NULL )',
  'CREATE TABLE `project` ( `id` text PRIMARY KEY, `worktree` text NOT NULL, `vcs` text, `name` text, `icon_url` text, `icon_url_override` text, `icon_color` text, `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `time_initialized` integer, `sandboxes` text NOT NULL, `commands` text )',
  'CREATE TABLE `session` ( `id` text PRIMARY KEY, `project_id` text NOT NULL, `workspace_id` text, `parent_id` text, `slug` text NOT NULL, `directory` text NOT NULL, `path` text, `title` text NOT NULL, `version` text NOT NULL, `share_url` text, `summary_additions` integer, `summary_deletions` integer, `summary_files` integer, `summary_diffs` text, `metadata` text, `cost` real DEFAULT 0 NOT NULL, `tokens_input` integer DEFAULT 0 NOT NULL, `tokens_output` integer DEFAULT 0 NOT NULL, `tokens_reasoning` integer DEFAULT 0 NOT NULL, `tokens_cache_read` integer DEFAULT 0 NOT NULL, `tokens_cache_write` integer DEFAULT 0 NOT NULL, `revert` text, `permission` text, `agent` text, `model` text, `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `time_compacting` integer, `time_archived` integer, CONSTRAINT `fk_session_project_id_project_id_fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE CASCADE )',
  'CREATE TABLE `message` ( `id` text PRIMARY KEY, `session_id` text NOT NULL, `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL, CONSTRAINT `fk_message_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE )',
  'CREATE TABLE `part` ( `id` text PRIMARY KEY, `message_id` text NOT NULL, `session_id` text NOT NULL, `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL, CONSTRAINT `fk_part_message_id_message_id_fk` FOREIGN KEY (`message_id`) REFERENCES `message`(`id`) ON DELETE CASCADE )',
  'CREATE TABLE `session_share` ( `session_id` text PRIMARY KEY, `id` text NOT NULL, `secret` text NOT NULL, `url` text NOT NULL, `time_created` integer NOT NULL, `time_updated` integer NOT NULL, CONSTRAINT `fk_session_share_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE )',
  'CREATE TABLE `todo` ( `session_id` text NOT NULL, `content` text NOT NULL, `status` text NOT NULL, `priority` text NOT NULL, `position` integer NOT NULL, `time_created` integer NOT NULL, `time_updated` integer NOT NULL, CONSTRAINT `todo_pk` PRIMARY KEY(`session_id`, `position`), CONSTRAINT `fk_todo_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE )',
  'CREATE INDEX `message_session_time_created_id_idx` ON `message` (`session_id`,`time_created`,`id`)',
  'CREATE INDEX `part_message_id_id_idx` ON `part` (`message_id`,`id`)',
  'CREATE INDEX `part_session_idx` ON `part` (`session_id`)',
  'CREATE INDEX `session_parent_idx` ON `session` (`parent_id`)',
  'CREATE INDEX `session_project_idx` ON `session` (`project_id`)',
  'CREATE INDEX `session_workspace_idx` ON `session` (`workspace_id`)',
  'CREATE INDEX `todo_session_idx` ON `todo` (`session_id`)',
];

/** [providerID, modelID, weight]; the last is priced by no table (ccusage and Hindsight both leave it unpriced). */
const MODELS = [
  ['anthropic', 'claude-sonnet-4-5-20250929', 5],
  ['anthropic', 'claude-haiku-4-5', 2],
  ['openai', 'gpt-5', 2],
  ['google', 'gemini-3-pro-preview', 1],
  ['opencode', 'big-pickle', 1],
] as const;
/** $ per million input, output, cache read, cache write tokens, as OpenCode prices a call (models.dev) when it records a cost. */
const RATES: Record<string, [number, number, number, number]> = {
  'claude-sonnet-4-5-20250929': [3, 15, 0.3, 3.75],
  'claude-haiku-4-5': [1, 5, 0.1, 1.25],
  'gpt-5': [1.25, 10, 0.125, 0],
  'gemini-3-pro-preview': [2, 12, 0.2, 0],
  'big-pickle': [0, 0, 0, 0],
};
const TOOLS = [['read', 30], ['bash', 25], ['edit', 12], ['grep', 10], ['glob', 6], ['write', 5], ['webfetch', 2], ['todowrite', 3]] as const;
const PROJECTS = ['/home/maya/src/acme-billing', '/Users/jonas.weber/code/storefront-web', '/home/zoë/projets/café-menu'];

/** A session as it is being written: its rows, kept until the session is done. */
interface Sess {
  id: string;
  projectId: string;
  dir: string;
  parentId: string | null;
  /** Also written to storage/ (every session in 'storage'; about half, with their sub-agents, in 'both'). */
  inStorage: boolean;
  title: string;
  created: number;
  updated: number;
  agent: string;
  provider: string;
  model: string;
  messages: { id: string; created: number; updated: number; data: Obj }[];
  parts: { id: string; messageId: string; created: number; updated: number; data: Obj }[];
  totals: { cost: number; input: number; output: number; reasoning: number; read: number; write: number };
}

export function generateOpenCode(home: string, opts: OpenCodeOptions): OpenCodeStats {
  return new OpenCodeGen(home, opts).run();
}

class OpenCodeGen {
  private readonly rng: Rng;
  private readonly text: TextGen;
  private readonly layout: 'db' | 'storage' | 'both';
  private now: number;
  private idCounter = 0;
  private rowBytes = 0;
  private readonly stats: OpenCodeStats = { files: 0, bytes: 0, lines: 0, sessions: 0, subagents: 0, messages: 0, parts: 0 };
  private readonly projects = new Map<string, string>();
  private readonly projectDocs = new Set<string>();
  private db: { db: Database.Database; project: Database.Statement; session: Database.Statement; share: Database.Statement; message: Database.Statement; part: Database.Statement } | null = null;

  constructor(
    private readonly home: string,
    private readonly opts: OpenCodeOptions,
  ) {
    this.rng = new Rng(opts.seed);
    this.text = new TextGen(this.rng, 64 * 1024);
    this.layout = opts.layout ?? 'db';
    this.now = opts.startMs ?? Date.UTC(2026, 0, 2, 9, 0, 0);
  }

  run(): OpenCodeStats {
    mkdirSync(this.home, { recursive: true });
    if (this.layout !== 'storage') this.openDatabase();
    const roots = this.opts.sessions ?? (this.opts.targetBytes ? Number.POSITIVE_INFINITY : 6);
    for (let i = 0; i < roots; i++) {
      if (this.opts.targetBytes && this.rowBytes >= this.opts.targetBytes) break;
      const last = i === roots - 1 && Number.isFinite(roots);
      this.rootSession(last && roots > 2 ? 'streaming' : i === roots - 2 && roots > 3 ? 'aborted' : 'done');
      this.now += this.rng.int(20, 600) * 60_000; // the next session starts minutes to hours later
    }
    this.db?.db.close();
    return this.stats;
  }

  /** OpenCode's ids: a prefix, 12 hex digits of time and counter (ascending), 14 random base62 characters. */
  private id(prefix: string): string {
    const n = BigInt(this.now) * 4096n + BigInt(this.idCounter++ % 4096);
    return `${prefix}_${n.toString(16).padStart(12, '0').slice(-12)}${this.rng.base62(14)}`;
  }

  private tick(lo: number, hi: number): number {
    this.now += this.rng.int(lo, hi);
    return this.now;
  }

  private project(dir: string): string {
    let id = this.projects.get(dir);
    if (!id) this.projects.set(dir, (id = this.rng.hex(40)));
    return id;
  }

  private newSession(dir: string, parentId: string | null, agent: string, title: string, inStorage: boolean): Sess {
    const [provider, model] = this.rng.weighted(MODELS.map(([p, m, w]) => [[p, m], w] as const));
    const created = this.tick(100, 900);
    return {
      id: this.id('ses'), projectId: this.project(dir), dir, parentId, inStorage, title, created, updated: created, agent, provider, model,
      messages: [], parts: [], totals: { cost: 0, input: 0, output: 0, reasoning: 0, read: 0, write: 0 },
    };
  }

  private rootSession(ending: 'done' | 'streaming' | 'aborted'): void {
    const dir = this.rng.pick(PROJECTS);
    // 'both': about half the sessions were also left behind in storage/ by an upgrade.
    const inStorage = this.layout === 'storage' || (this.layout === 'both' && this.rng.chance(0.5));
    const s = this.newSession(dir, null, 'build', this.text.title(), inStorage);
    this.stats.sessions++;
    const turns = this.rng.int(1, 4);
    for (let t = 0; t < turns; t++) {
      const lastTurn = t === turns - 1;
      const user = this.userMessage(s, t === 0 ? `${this.text.sentence(this.rng.chance(0.3))} ${this.text.sentence()}` : this.text.sentence());
      const steps = this.rng.int(1, 4);
      for (let k = 0; k < steps; k++) {
        const final = k === steps - 1;
        const state = lastTurn && final && ending !== 'done' ? ending : 'done';
        this.assistantStep(s, user, final, state);
      }
      this.tick(30_000, 600_000);
    }
    this.finish(s);
  }

  private userMessage(s: Sess, prompt: string): string {
    const created = this.tick(2_000, 90_000);
    const id = this.id('msg');
    s.messages.push({ id, created, updated: created, data: { role: 'user', time: { created }, summary: { diffs: [] }, agent: s.agent, model: { providerID: s.provider, modelID: s.model } } });
    this.part(s, id, created, { type: 'text', text: prompt });
    if (this.rng.chance(0.15)) {
      this.part(s, id, created, { type: 'file', mime: 'text/plain', filename: 'notes.md', url: `file://${s.dir}/notes.md` });
      this.part(s, id, created, { type: 'text', synthetic: true, text: `Called the Read tool with the following input: {"filePath":"${s.dir}/notes.md"}` });
    }
    s.updated = created;
    return id;
  }

  private part(s: Sess, messageId: string, created: number, data: Obj, updated = created): void {
    s.parts.push({ id: this.id('prt'), messageId, created, updated, data });
    this.stats.parts++;
  }

  /** One assistant message: one LLM call, its parts, its tokens; a task call spawns a sub-agent session. */
  private assistantStep(s: Sess, parentId: string, final: boolean, state: 'done' | 'streaming' | 'aborted'): void {
    const created = this.tick(500, 4_000);
    const id = this.id('msg');
    const snapshot = this.rng.hex(40);
    this.part(s, id, created, { type: 'step-start', snapshot });
    if (this.rng.chance(0.4)) {
      const start = this.tick(200, 2_000);
      this.part(s, id, start, { type: 'reasoning', text: this.text.prose(this.rng.size(400, 0.8, 40, 4_000)), time: { start, end: this.tick(500, 8_000) } });
    }
    const start = this.tick(200, 3_000);
    const reply = final ? this.text.prose(this.rng.size(500, 0.9, 20, 6_000)) : this.text.sentence();
    this.part(s, id, start, { type: 'text', text: reply, time: { start, end: this.tick(300, 9_000) } });
    if (!final || this.rng.chance(0.1)) {
      const calls = this.rng.int(1, 3);
      for (let c = 0; c < calls; c++) this.toolPart(s, id, state === 'streaming' && c === calls - 1);
      if (s.parentId === null && this.rng.chance(0.07)) this.taskPart(s, id);
    }
    const completed = this.tick(300, 5_000);
    // Prompts stay under 200k tokens: above it ccusage and Hindsight price long context differently.
    const input = this.rng.size(2_000, 1.2, 8, 60_000);
    const output = state === 'aborted' ? this.rng.int(0, 40) : this.rng.size(300, 1.0, 1, 12_000);
    const read = this.rng.chance(0.8) ? this.rng.size(20_000, 1.0, 0, 120_000) : 0;
    // Only Anthropic reports cache writes; OpenAI and Google cache implicitly.
    const write = s.provider === 'anthropic' && this.rng.chance(0.4) ? this.rng.size(3_000, 1.1, 0, 10_000) : 0;
    const reasoning = s.provider === 'openai' || s.provider === 'google' ? this.rng.size(200, 1.2, 0, 8_000) : 0;
    // Newer builds record the provider's total (reasoning included); older ones do not.
    const tokens: Obj = this.rng.chance(0.7) ? { total: input + output + reasoning + read + write } : {};
    Object.assign(tokens, { input, output, reasoning, cache: { read, write } });
    // Half the calls record no cost (subscription providers record 0); the rest what models.dev prices say.
    const [ri, ro, rr, rw] = RATES[s.model]!;
    const cost = this.rng.chance(0.5) ? 0 : (input * ri + (output + reasoning) * ro + read * rr + write * rw) / 1e6;
    const data: Obj = {
      role: 'assistant', time: state === 'streaming' ? { created } : { created, completed }, parentID: parentId,
      modelID: s.model, providerID: s.provider, mode: s.agent, agent: s.agent, path: { cwd: s.dir, root: s.dir },
      cost, tokens,
    };
    if (state === 'aborted') data.error = { name: 'MessageAbortedError', data: { message: 'The operation was aborted.' } };
    else if (state === 'done') data.finish = final ? 'stop' : 'tool-calls';
    if (state === 'done') this.part(s, id, completed, { type: 'step-finish', reason: final ? 'stop' : 'tool-calls', snapshot: this.rng.hex(40), cost, tokens });
    s.messages.push({ id, created, updated: state === 'streaming' ? created : completed, data });
    Object.assign(s.totals, {
      cost: s.totals.cost + cost, input: s.totals.input + input, output: s.totals.output + output,
      reasoning: s.totals.reasoning + reasoning, read: s.totals.read + read, write: s.totals.write + write,
    });
    s.updated = this.now;
  }

  private toolPart(s: Sess, messageId: string, running: boolean): void {
    const tool = this.rng.weighted(TOOLS);
    const start = this.tick(100, 2_000);
    const path = `${s.dir}/src/${this.text.ident()}.ts`;
    const input: Obj =
      tool === 'bash' ? { command: `npm test -- ${this.text.ident()}`, description: this.text.title() }
      : tool === 'grep' || tool === 'glob' ? { pattern: this.text.ident(), path: s.dir }
      : tool === 'webfetch' ? { url: 'https://example.com/docs', format: 'markdown' }
      : tool === 'todowrite' ? { todos: [{ content: this.text.title(), status: 'pending', priority: 'high', id: '1' }] }
      : tool === 'edit' ? { filePath: path, oldString: this.text.code(80), newString: this.text.code(90) }
      : tool === 'write' ? { filePath: path, content: this.text.code(this.rng.size(600, 1, 20, 8_000)) }
      : { filePath: path };
    const callID = `toolu_${this.rng.base62(24)}`;
    if (running) {
      this.part(s, messageId, start, { type: 'tool', callID, tool, state: { status: 'running', input, time: { start } } });
      return;
    }
    const end = this.tick(50, 20_000);
    const failed = this.rng.chance(0.08);
    const state: Obj = failed
      ? { status: 'error', input, error: `Error: ${this.text.sentence()}`, time: { start, end } }
      : { status: 'completed', input, output: this.text.code(this.rng.size(800, 1.3, 10, 60_000)), title: tool === 'bash' ? String(input.command) : path.slice(s.dir.length + 1), metadata: {}, time: { start, end } };
    this.part(s, messageId, start, { type: 'tool', callID, tool, state }, end);
    if (!failed && (tool === 'edit' || tool === 'write')) this.part(s, messageId, end, { type: 'patch', hash: this.rng.hex(40), files: [path] });
  }

  /** The task tool: a sub-agent session whose id the tool's metadata names. */
  private taskPart(s: Sess, messageId: string): void {
    const start = this.tick(100, 2_000);
    const description = this.text.title();
    const child = this.newSession(s.dir, s.id, 'general', `${description} (@general subagent)`, s.inStorage);
    this.stats.subagents++;
    const user = this.userMessage(child, this.text.prose(300));
    for (let k = 0, n = this.rng.int(1, 3); k < n; k++) this.assistantStep(child, user, k === n - 1, 'done');
    this.finish(child);
    const end = this.tick(100, 1_000);
    const input = { description, prompt: this.text.prose(200), subagent_type: 'general' };
    this.part(s, messageId, start, {
      type: 'tool', callID: `toolu_${this.rng.base62(24)}`, tool: 'task',
      state: { status: 'completed', input, output: this.text.prose(400), title: description, metadata: { sessionId: child.id }, time: { start, end } },
    }, end);
  }

  private sessionRow(s: Sess): Obj {
    return {
      id: s.id, project_id: s.projectId, workspace_id: null, parent_id: s.parentId, slug: this.text.ident(), directory: s.dir, path: '',
      title: s.title, version: '1.18.31', share_url: null, summary_additions: null, summary_deletions: null, summary_files: null,
      summary_diffs: null, metadata: null, cost: s.totals.cost, tokens_input: s.totals.input, tokens_output: s.totals.output,
      tokens_reasoning: s.totals.reasoning, tokens_cache_read: s.totals.read, tokens_cache_write: s.totals.write, revert: null,
      permission: null, agent: s.agent, model: JSON.stringify({ id: s.model, providerID: s.provider }), time_created: s.created,
      time_updated: s.updated, time_compacting: null, time_archived: null,
    };
  }

  /** Open the database with OpenCode's tables, its projects and (when asked) the secrets; sessions are added as they end. */
  private openDatabase(): void {
    const db = new Database(join(this.home, 'opencode.db'));
    db.pragma('journal_mode = WAL');
    for (const ddl of SCHEMA) db.exec(ddl);
    const secret = this.opts.secret;
    const t = Date.UTC(2026, 0, 1);
    if (secret) {
      db.prepare('INSERT INTO account VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run('acc_1', 'me@example.com', 'https://opencode.ai', secret, secret, null, t, t);
      db.prepare('INSERT INTO control_account VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run('me@example.com', 'https://opencode.ai', secret, secret, null, 1, t, t);
      db.prepare('INSERT INTO credential VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)').run('cred_1', null, 'anthropic', secret, null, null, 1, t, t);
    }
    this.db = {
      db,
      project: db.prepare('INSERT OR IGNORE INTO project (id, worktree, vcs, time_created, time_updated, sandboxes) VALUES (?, ?, ?, ?, ?, ?)'),
      session: db.prepare(`INSERT INTO session VALUES (${Array(29).fill('?').join(', ')})`),
      share: db.prepare('INSERT INTO session_share VALUES (?, ?, ?, ?, ?, ?)'),
      message: db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)'),
      part: db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)'),
    };
    this.stats.files++;
  }

  /** A finished session goes to the database and/or storage/ at once, so a large corpus never sits in memory. */
  private finish(s: Sess): void {
    const toDb = this.layout !== 'storage';
    // 'both': about half the sessions were also left behind in storage/ by an upgrade.
    if (toDb) this.insert(s);
    if (s.inStorage) this.writeDocuments(s);
    for (const m of s.messages) this.count(m.data, 'message');
    for (const p of s.parts) this.count(p.data, 'part');
  }

  private insert(s: Sess): void {
    const w = this.db!;
    const t = Date.UTC(2026, 0, 1);
    w.db.transaction(() => {
      w.project.run(s.projectId, s.dir, 'git', t, t, '[]');
      w.session.run(...Object.values(this.sessionRow(s)));
      const secret = this.opts.secret;
      if (secret) w.share.run(s.id, this.rng.base62(8), secret, `https://opncd.ai/s/${secret}`, t, t);
      for (const m of s.messages) w.message.run(m.id, s.id, m.created, m.updated, JSON.stringify(m.data));
      for (const p of s.parts) w.part.run(p.id, p.messageId, s.id, p.created, p.updated, JSON.stringify(p.data));
    })();
  }

  /** Pre-1.0 storage/: one pretty-printed document per record, ids inside. */
  private writeDocuments(s: Sess): void {
    const storage = join(this.home, 'storage');
    const write = (rel: string, value: unknown) => {
      const file = join(storage, rel);
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, JSON.stringify(value, null, 2));
      this.stats.files++;
    };
    if (!this.projectDocs.has(s.projectId)) {
      this.projectDocs.add(s.projectId);
      write(`project/${s.projectId}.json`, { id: s.projectId, worktree: s.dir, vcs: 'git', sandboxes: [], time: { created: Date.UTC(2026, 0, 1), updated: Date.UTC(2026, 0, 1) } });
    }
    const info: Obj = { id: s.id, slug: 'legacy', version: '0.15.31', projectID: s.projectId, directory: s.dir, title: s.title, time: { created: s.created, updated: s.updated } };
    if (s.parentId) info.parentID = s.parentId;
    write(`session/${s.projectId}/${s.id}.json`, info);
    for (const m of s.messages) write(`message/${s.id}/${m.id}.json`, { id: m.id, sessionID: s.id, ...m.data });
    for (const p of s.parts) write(`part/${p.messageId}/${p.id}.json`, { id: p.id, sessionID: s.id, messageID: p.messageId, ...p.data });
  }

  /** Row JSON bytes written (what targetBytes measures), counted once per record whatever the layout. */
  private count(data: Obj, table: 'message' | 'part'): void {
    const n = Buffer.byteLength(JSON.stringify(data));
    this.rowBytes += n;
    this.stats.bytes += n;
    this.stats.lines++;
    if (table === 'message') this.stats.messages++;
  }
}
