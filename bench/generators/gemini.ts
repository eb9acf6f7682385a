// Writes a synthetic Gemini CLI home (~/.gemini: projects.json, tmp/<project>/{.project_root,
// logs.json, chats/…}) the way gemini-cli's ChatRecordingService and ProjectRegistry write it;
// deterministic per seed. Facts the layout follows (from gemini-cli packages/core):
// - project folders are slugs registered in projects.json with a .project_root marker (newer
//   CLIs) or sha256(project path) (older CLIs, no marker);
// - newer chats are JSONL: a header {sessionId, projectHash, startTime, lastUpdated, kind}, then
//   every message appended, `{"$set":{"lastUpdated":…}}` after each save, a reply written again
//   under its id as its tool calls run and finish, `$rewindTo` when the user rewinds;
// - older chats are one pretty-printed JSON document {sessionId, projectHash, startTime,
//   lastUpdated, messages[]};
// - a reply's tokens are {input, output, cached, thoughts, tool, total}: input includes cached,
//   total = input + output + thoughts + tool;
// - a sub-agent run by delegate_to_agent records its own chat in chats/<parentSessionId>/<id>.jsonl.

import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ChunkedWriter, Clock, Rng, writeCounted, type GenStats } from './prng.js';
import { TextGen } from './text.js';

export interface GeminiOptions {
  /** Main sessions to write (sub-agent chats come on top). */
  sessions: number;
  seed: number;
  /** Project folders to spread sessions over (default 4). */
  projects?: number;
  /** Share of sessions in the older .json layout (default 0.25). */
  legacyShare?: number;
}

export interface GeminiStats extends GenStats {
  /** Replies that carry a tokens record (LLM calls), sub-agents included. */
  calls: number;
  legacy: number;
}

type Obj = Record<string, unknown>;
interface Tokens { input: number; output: number; cached: number; thoughts: number; tool: number; total: number }
interface Chat { id: string; messages: Obj[]; out: ChunkedWriter | null; ctx: number; model: string; projectHash: string; root: string; dir: string }

const ROOTS = ['/home/maya/src/acme-billing', '/Users/jonas.weber/code/storefront-web', '/home/zoë/projets/café-menu',
  '/home/dev/gemini-sandbox', '/Users/ana/dev/mobile-app', '/srv/repos/search-service'];
const MODELS = [['gemini-2.5-pro', 30], ['gemini-2.5-flash', 25], ['gemini-3-flash-preview', 20], ['gemini-3.1-pro-preview', 15],
  ['gemini-2.5-flash-lite', 10]] as const;
const TOOLS = [['read_file', 30], ['run_shell_command', 20], ['search_file_content', 12], ['replace', 12], ['list_directory', 8],
  ['write_file', 6], ['glob', 5], ['web_fetch', 2], ['google_web_search', 2], ['delegate_to_agent', 3]] as const;
const DISPLAY: Record<string, string> = {
  read_file: 'ReadFile', run_shell_command: 'Shell', search_file_content: 'SearchText', replace: 'Edit', list_directory: 'ReadFolder',
  write_file: 'WriteFile', glob: 'FindFiles', web_fetch: 'WebFetch', google_web_search: 'GoogleSearch', delegate_to_agent: 'Delegate to Agent',
};
const FILES = ['src/index.ts', 'src/config.ts', 'README.md', 'package.json', 'src/api/routes.ts', 'tests/api.test.ts', 'docs/setup.md'];
const INIT_PROMPT = '\nYou are an AI agent that brings the power of Gemini directly into the terminal. Your task is to analyze the current directory and generate a comprehensive GEMINI.md file to be used as instructional context for future interactions.\n';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
/** ProjectRegistry's slug of a folder name. */
const slugify = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '') || 'project';

export function generateGemini(home: string, opts: GeminiOptions): GeminiStats {
  return new GeminiGen(home, opts).run();
}

class GeminiGen {
  private readonly rng: Rng;
  private readonly text: TextGen;
  private readonly clock: Clock;
  private readonly stats: GeminiStats = { files: 0, bytes: 0, lines: 0, sessions: 0, subagents: 0, calls: 0, legacy: 0 };

  constructor(private readonly home: string, private readonly opts: GeminiOptions) {
    this.rng = new Rng(opts.seed);
    this.text = new TextGen(this.rng);
    this.clock = new Clock(Date.UTC(2026, 1, 2) + this.rng.int(0, 30 * 86400) * 1000);
  }

  run(): GeminiStats {
    const projects = Math.max(1, Math.min(this.opts.projects ?? 4, ROOTS.length));
    const registry: Record<string, string> = {};
    const folders: { root: string; dir: string; prompts: Obj[] }[] = [];
    for (let p = 0; p < projects; p++) {
      const root = ROOTS[p]!;
      // Even projects: a newer CLI's slug with its marker; odd ones: an older CLI's hash folder.
      const slugged = p % 2 === 0;
      const name = slugged ? slugify(basename(root)) : sha256(root);
      const dir = join(this.home, 'tmp', name);
      mkdirSync(join(dir, 'chats'), { recursive: true });
      if (slugged) {
        registry[root] = name;
        writeCounted(join(dir, '.project_root'), root, this.stats);
      }
      folders.push({ root, dir, prompts: [] });
    }
    for (let s = 0; s < this.opts.sessions; s++) {
      const folder = folders[s % projects]!;
      this.session(folder.root, folder.dir, folder.prompts);
      this.clock.tick(600_000, 20 * 3_600_000, this.rng);
    }
    for (const f of folders) writeCounted(join(f.dir, 'logs.json'), JSON.stringify(f.prompts, null, 2), this.stats);
    writeCounted(join(this.home, 'projects.json'), JSON.stringify({ projects: registry }, null, 2), this.stats);
    return this.stats;
  }

  private session(root: string, dir: string, prompts: Obj[]): void {
    const id = this.rng.uuid();
    const legacy = this.rng.chance(this.opts.legacyShare ?? 0.25);
    const start = this.clock.iso();
    const stamp = start.slice(0, 16).replace(/:/g, '-');
    const file = join(dir, 'chats', `session-${stamp}-${id.slice(0, 8)}.${legacy ? 'json' : 'jsonl'}`);
    const chat: Chat = {
      id, messages: [], out: legacy ? null : new ChunkedWriter(file, this.stats), ctx: this.rng.int(6_000, 14_000),
      model: this.rng.weighted(MODELS), projectHash: sha256(root), root, dir,
    };
    this.stats.sessions++;
    if (legacy) this.stats.legacy++;
    this.write(chat, { sessionId: id, projectHash: chat.projectHash, startTime: start, lastUpdated: start, kind: 'main' });
    const turns = this.rng.int(1, 6);
    for (let t = 0; t < turns; t++) {
      this.clock.tick(5_000, 240_000, this.rng);
      const init = t === 0 && this.rng.chance(0.15);
      const prompt = init ? '/init' : this.text.sentence(this.rng.chance(0.1));
      prompts.push({ sessionId: id, messageId: prompts.filter((p) => p.sessionId === id).length, type: 'user', message: prompt, timestamp: this.clock.iso() });
      this.message(chat, init
        ? { type: 'user', content: [{ text: INIT_PROMPT }], displayContent: [{ text: '/init' }] }
        : { type: 'user', content: [{ text: prompt }] });
      if (this.rng.chance(0.08)) chat.model = this.rng.weighted(MODELS); // /model switched mid-session
      this.replies(chat, 0);
      if (t === turns - 1 && this.rng.chance(0.1)) {
        // The user pressed Esc during the last reply.
        this.clock.tick(2_000, 30_000, this.rng);
        this.message(chat, { type: 'info', content: 'Request cancelled.' });
      } else if (!legacy && t > 0 && this.rng.chance(0.06)) {
        const target = chat.messages.filter((m) => m.type === 'user').at(-1)!;
        this.write(chat, { $rewindTo: target.id });
      }
    }
    if (!legacy && this.rng.chance(0.3)) this.write(chat, { $set: { summary: this.text.title() } });
    this.close(chat, file, start);
  }

  /** A model turn: replies with tool calls until a final text reply. */
  private replies(chat: Chat, depth: number): void {
    const steps = this.rng.int(0, depth > 0 ? 3 : 5);
    for (let i = 0; i <= steps; i++) {
      this.clock.tick(1_500, 20_000, this.rng);
      const final = i === steps;
      const thoughts = this.rng.chance(0.7) ? this.thoughts() : [];
      const tokens = this.tokens(chat, final);
      const reply: Obj = { id: this.rng.uuid(), timestamp: this.clock.iso(), type: 'gemini', content: final ? this.text.prose(this.rng.size(800, 0.8, 60, 8_000)) : '', thoughts, tokens, model: chat.model };
      this.stats.calls++;
      this.push(chat, reply);
      if (final) break;
      const calls = Array.from({ length: this.rng.int(1, 3) }, () => this.toolCall(chat, depth));
      if (this.rng.chance(0.3)) this.push(chat, { ...reply, toolCalls: calls.map((c) => ({ ...c, status: 'executing', result: undefined, resultDisplay: undefined })) });
      this.clock.tick(200, 15_000, this.rng);
      this.push(chat, { ...reply, toolCalls: calls });
    }
  }

  private toolCall(chat: Chat, depth: number): Obj {
    const name = depth > 0 ? this.rng.pick(['read_file', 'search_file_content', 'list_directory'] as const) : this.rng.weighted(TOOLS);
    const callId = `${name}-${this.clock.ms}-${this.rng.hex(13)}`;
    const path = join(chat.root, this.rng.pick(FILES));
    const failed = this.rng.chance(0.06);
    let args: Obj;
    let output: string;
    let display: unknown;
    let agentId: string | undefined;
    switch (name) {
      // Sizes follow the real sample: a read returns a whole file (p50 ~15 KB), thoughts and replies run to paragraphs.
      case 'read_file': args = { file_path: path }; output = this.text.code(this.rng.size(12_000, 0.9, 200, 120_000)); display = ''; break;
      case 'write_file': args = { file_path: path, content: this.text.code(this.rng.size(3_000, 0.8, 100, 40_000)) }; output = `Successfully created and wrote to new file: ${path}.`; break;
      case 'replace': args = { file_path: path, instruction: this.text.sentence(), old_string: this.text.code(this.rng.size(300, 0.8, 20, 4_000)), new_string: this.text.code(this.rng.size(400, 0.8, 20, 6_000)) }; output = `Successfully modified file: ${path} (1 replacements).`; break;
      case 'run_shell_command': args = { command: this.rng.pick(['npm test', 'git status', 'ls -la', 'npm run build', 'pytest -q']), description: this.text.sentence(), dir_path: chat.root }; output = `Command: ${args.command as string}\nDirectory: (root)\nOutput: ${this.text.code(this.rng.size(1_500, 1.2, 20, 60_000))}\nExit Code: ${failed ? 1 : 0}`; break;
      case 'search_file_content': {
        args = { pattern: this.text.ident(), dir_path: chat.root };
        const hits = this.rng.int(0, 40);
        output = `Found ${hits} matches for pattern "${args.pattern as string}" in path ".":\n---\n${this.text.code(hits * 90)}`;
        display = `Found ${hits} matches`;
        break;
      }
      case 'list_directory': args = { dir_path: chat.root }; output = `Directory listing for ${chat.root}:\n${FILES.join('\n')}`; display = `Listed ${FILES.length} item(s).`; break;
      case 'glob': args = { pattern: '**/*.ts', dir_path: chat.root }; output = FILES.filter((f) => f.endsWith('.ts')).map((f) => join(chat.root, f)).join('\n'); display = 'Found 4 matching file(s)'; break;
      case 'web_fetch': args = { prompt: `Summarise https://example.com/${this.text.ident()}` }; output = this.text.prose(this.rng.size(3_000, 0.8, 200, 30_000)); break;
      case 'google_web_search': args = { query: this.text.sentence() }; output = this.text.prose(this.rng.size(1_500, 0.6, 200, 8_000)); break;
      default: {
        args = { agent_name: 'codebase_investigator', objective: this.text.sentence() };
        agentId = this.subagent(chat);
        output = `Subagent 'codebase_investigator' finished.\nTermination Reason: GOAL\nResult:\n${this.text.prose(this.rng.size(1_500, 0.7, 100, 10_000))}`;
        display = output;
      }
    }
    const response = failed ? { error: `Error: ${this.text.sentence()}` } : { output };
    return {
      id: callId, name, args, result: [{ functionResponse: { id: callId, name, response } }], status: failed ? 'error' : 'success',
      timestamp: this.clock.iso(), ...(display !== undefined && { resultDisplay: display }), displayName: DISPLAY[name],
      description: `The ${DISPLAY[name]} tool.`, renderOutputAsMarkdown: name !== 'run_shell_command', ...(agentId && { agentId }),
    };
  }

  /** A delegated sub-agent's own chat, beside its parent's (chats/<parentSessionId>/<id>.jsonl). */
  private subagent(parent: Chat): string {
    const id = `${parent.id.slice(0, 8)}-codebase_investigator-${this.rng.base62(6)}`;
    const dir = join(parent.dir, 'chats', parent.id);
    mkdirSync(dir, { recursive: true });
    const chat: Chat = { id, messages: [], out: new ChunkedWriter(join(dir, `${id}.jsonl`), this.stats), ctx: this.rng.int(3_000, 8_000), model: 'gemini-2.5-flash', projectHash: parent.projectHash, root: parent.root, dir: parent.dir };
    this.stats.subagents++;
    const start = this.clock.iso();
    this.write(chat, { sessionId: id, projectHash: chat.projectHash, startTime: start, lastUpdated: start, kind: 'subagent', directories: [parent.root] });
    this.message(chat, { type: 'user', content: [{ text: this.text.sentence() }] });
    this.replies(chat, 1);
    chat.out!.close();
    return id;
  }

  private thoughts(): Obj[] {
    return Array.from({ length: this.rng.int(1, 3) }, () => ({ subject: this.text.title(), description: this.text.prose(this.rng.size(350, 0.5, 80, 1_500)), timestamp: new Date(this.clock.ms - this.rng.int(50, 900)).toISOString() }));
  }

  /** A reply's usage: the prompt is the conversation so far (it grows), part of it served from cache. */
  private tokens(chat: Chat, final: boolean): Tokens {
    chat.ctx += this.rng.int(300, 6_000);
    // Now and then a pasted log or a big read takes the prompt past the 200k long-context line.
    const input = this.rng.chance(0.02) ? this.rng.int(200_001, 320_000) : chat.ctx;
    const cached = this.rng.chance(0.6) ? Math.floor(input * (0.3 + this.rng.next() * 0.6)) : 0;
    const output = final ? this.rng.int(40, 1_500) : this.rng.int(10, 200);
    const thoughts = this.rng.chance(0.8) ? this.rng.int(20, 2_500) : 0;
    const tool = this.rng.chance(0.05) ? this.rng.int(1, 400) : 0;
    return { input, output, cached, thoughts, tool, total: input + output + thoughts + tool };
  }

  private message(chat: Chat, fields: Obj): void {
    this.push(chat, { id: this.rng.uuid(), timestamp: this.clock.iso(), ...fields });
  }

  /** Record a message as the CLI does: append it (again, under its id, when it changed), then stamp lastUpdated. */
  private push(chat: Chat, msg: Obj): void {
    const at = chat.messages.findIndex((m) => m.id === msg.id);
    if (at === -1) chat.messages.push(msg);
    else chat.messages[at] = msg;
    this.write(chat, msg);
    this.write(chat, { $set: { lastUpdated: this.clock.iso() } });
  }

  private write(chat: Chat, record: Obj): void {
    if (!chat.out) return; // a legacy chat is written whole at the end
    if (record.$rewindTo !== undefined) {
      const at = chat.messages.findIndex((m) => m.id === record.$rewindTo);
      if (at !== -1) chat.messages.length = at;
    }
    chat.out.line(JSON.stringify(record));
  }

  private close(chat: Chat, file: string, start: string): void {
    if (chat.out) {
      chat.out.close();
      return;
    }
    const doc = { sessionId: chat.id, projectHash: chat.projectHash, startTime: start, lastUpdated: this.clock.iso(), messages: chat.messages };
    writeCounted(file, JSON.stringify(doc, null, 2), this.stats);
  }
}
