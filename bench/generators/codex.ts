// Writes a synthetic Codex CLI home: sessions/YYYY/MM/DD/rollout-<time>-<uuid v7>.jsonl (and a few
// in archived_sessions/), shaped like Codex 0.12x rollouts (codex-rs/rollout: one compact JSON
// RolloutItem per line). Turns carry what real ones do: turn_context, the prompt twice (the
// response_item sent to the model and the event_msg shown in the UI), encrypted reasoning,
// exec_command / apply_patch / web search calls with their outputs and end events, agent_message
// mirrors, and a token_count after each model call (cumulative and last usage; some written twice
// with an unchanged total, some with `info: null`). Some sessions are forks (their rollout opens
// with the parent's history rewritten to the fork instant), spawned sub-agents, Codex Desktop
// sessions without any token_count, aborted turns and errors. Deterministic per seed.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ChunkedWriter, Clock, Rng, type GenStats } from './prng.js';
import { TextGen } from './text.js';

export interface CodexOptions {
  /** Root sessions to write (forks and sub-agents come on top). */
  sessions: number;
  seed: number;
  /** Turns per session, at most (default 6). */
  maxTurns?: number;
}

export interface CodexStats extends GenStats {
  forks: number;
  archived: number;
  /** Sessions written without any token_count (Codex Desktop). */
  withoutUsage: number;
}

type Obj = Record<string, unknown>;
interface Usage { input_tokens: number; cached_input_tokens: number; output_tokens: number; reasoning_output_tokens: number; total_tokens: number }
interface Line { timestamp: string; type: string; payload: Obj }

const CWDS = ['/Users/maya/src/acme-billing', '/home/jonas/code/storefront-web', '/home/dev/projets/café-menu', '/srv/repos/search-service'];
const MODELS = [['gpt-5.5', 5], ['gpt-5.4', 3], ['gpt-5-codex', 2], ['gpt-5.1-codex-max', 2], ['gpt-5.2-codex', 1]] as const;
const VERSIONS = ['0.118.0', '0.121.0', '0.125.0'];
const ZERO: Usage = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };

export function generateCodex(home: string, opts: CodexOptions): CodexStats {
  return new CodexGen(home, opts).run();
}

function add(a: Usage, b: Usage): Usage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    cached_input_tokens: a.cached_input_tokens + b.cached_input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    reasoning_output_tokens: a.reasoning_output_tokens + b.reasoning_output_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
}

class CodexGen {
  private readonly rng: Rng;
  private readonly text: TextGen;
  private readonly clock: Clock;
  private readonly stats: CodexStats = { files: 0, bytes: 0, lines: 0, sessions: 0, subagents: 0, forks: 0, archived: 0, withoutUsage: 0 };

  constructor(private readonly home: string, private readonly opts: CodexOptions) {
    this.rng = new Rng(opts.seed);
    this.text = new TextGen(this.rng);
    this.clock = new Clock(Date.UTC(2026, 3, 1) + this.rng.int(0, 20 * 86400) * 1000);
  }

  run(): CodexStats {
    for (let i = 0; i < this.opts.sessions; i++) {
      const desktop = this.rng.chance(0.08);
      const archived = !desktop && this.rng.chance(0.1);
      const lines = this.session({ desktop });
      const id = this.write(lines, archived);
      if (desktop) this.stats.withoutUsage++;
      if (archived) this.stats.archived++;
      // A fork of this session: its rollout replays the parent's history at the fork instant.
      if (!desktop && this.rng.chance(0.15)) {
        this.clock.tick(60_000, 3_600_000, this.rng);
        this.write(this.session({ parent: { id, lines, kind: 'fork' } }), false);
        this.stats.forks++;
      } else if (!desktop && this.rng.chance(0.1)) {
        this.clock.tick(5_000, 60_000, this.rng);
        this.write(this.session({ parent: { id, lines, kind: 'subagent' } }), false);
        this.stats.subagents++;
      }
      this.clock.tick(600_000, 8 * 3_600_000, this.rng);
    }
    return this.stats;
  }

  /** A time-ordered uuid (Codex thread ids are uuid v7: 48 bits of milliseconds first). */
  private uuidV7(): string {
    const ms = this.clock.ms.toString(16).padStart(12, '0');
    const r = this.rng.hex(20);
    const variant = '89ab'[this.rng.int(0, 3)];
    return `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7${r.slice(0, 3)}-${variant}${r.slice(3, 6)}-${r.slice(6, 18)}`;
  }

  private write(lines: Line[], archived: boolean): string {
    const meta = lines[0]!.payload;
    const id = String(meta.id);
    const started = new Date(String(meta.timestamp));
    const stamp = started.toISOString().slice(0, 19).replace(/:/g, '-');
    const day = started.toISOString().slice(0, 10).split('-');
    const dir = archived ? join(this.home, 'archived_sessions') : join(this.home, 'sessions', ...day);
    mkdirSync(dir, { recursive: true });
    const w = new ChunkedWriter(join(dir, `rollout-${stamp}-${id}.jsonl`), this.stats);
    for (const l of lines) w.line(JSON.stringify(l));
    w.close();
    this.stats.sessions++;
    return id;
  }

  private session(o: { desktop?: boolean; parent?: { id: string; lines: Line[]; kind: 'fork' | 'subagent' } }): Line[] {
    const lines: Line[] = [];
    const at = () => this.clock.iso();
    const id = this.uuidV7();
    const cwd = o.parent ? String(o.parent.lines[0]!.payload.cwd) : this.rng.pick(CWDS);
    const model = this.rng.weighted(MODELS);
    const version = o.desktop ? '0.128.0-alpha.1' : this.rng.pick(VERSIONS);
    const meta: Obj = {
      id,
      timestamp: at(),
      cwd,
      originator: o.desktop ? 'Codex Desktop' : 'codex-tui',
      cli_version: version,
      source: o.parent?.kind === 'subagent' ? { subagent: { thread_spawn: { parent_thread_id: o.parent.id, depth: 1, agent_role: 'explorer' } } } : o.desktop ? 'vscode' : 'cli',
      model_provider: 'openai',
      base_instructions: { text: `You are Codex, a coding agent based on GPT-5. ${this.text.prose(40)}` },
      git: { commit_hash: this.rng.hex(40), branch: this.rng.pick(['main', 'feat/usage-report', 'fix/flaky-test']), repository_url: 'git@github.com:example/project.git' },
    };
    if (o.parent?.kind === 'fork') meta.forked_from_id = o.parent.id;
    lines.push({ timestamp: at(), type: 'session_meta', payload: meta });
    let total: Usage = { ...ZERO };
    if (o.parent) {
      // The copied history, rewritten to the fork instant, in one burst (a few ms apart).
      for (const l of o.parent.lines) {
        this.clock.ms += this.rng.int(0, 2);
        lines.push({ ...l, timestamp: at() });
        if (l.type === 'event_msg' && l.payload.type === 'token_count') {
          const info = l.payload.info as Obj | null;
          if (info) total = info.total_token_usage as Usage;
        }
      }
      this.clock.tick(5_000, 20_000, this.rng);
    }
    const turns = this.rng.int(1, this.opts.maxTurns ?? 6);
    let context = 9_000 + this.rng.int(0, 4_000);
    for (let t = 0; t < turns; t++) {
      const turnId = this.uuidV7();
      if (!o.desktop) lines.push({ timestamp: at(), type: 'event_msg', payload: { type: 'task_started', turn_id: turnId, model_context_window: 258400 } });
      if (t === 0 && !o.parent) {
        lines.push({ timestamp: at(), type: 'response_item', payload: { type: 'message', role: 'developer', content: [{ type: 'input_text', text: `<permissions instructions>\n${this.text.prose(30)}` }] } });
        lines.push({ timestamp: at(), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `# AGENTS.md instructions for ${cwd}\n\n<INSTRUCTIONS>\n${this.text.prose(20)}\n</INSTRUCTIONS>` }, { type: 'input_text', text: `<environment_context>\n  <cwd>${cwd}</cwd>\n  <shell>zsh</shell>\n</environment_context>` }] } });
      }
      if (!o.desktop) lines.push({ timestamp: at(), type: 'turn_context', payload: { turn_id: turnId, cwd, approval_policy: 'on-request', sandbox_policy: { type: 'workspace-write', network_access: false }, model, effort: 'medium', summary: 'none' } });
      const prompt = this.text.sentence(this.rng.chance(0.2));
      if (!o.desktop) lines.push({ timestamp: at(), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] } });
      lines.push({ timestamp: at(), type: 'event_msg', payload: { type: 'user_message', message: prompt, images: [], local_images: [], text_elements: [] } });
      const steps = this.rng.int(1, 8);
      const aborted = t === turns - 1 && this.rng.chance(0.1);
      for (let s = 0; s < steps; s++) {
        this.clock.tick(1_500, 9_000, this.rng);
        lines.push({ timestamp: at(), type: 'response_item', payload: { type: 'reasoning', summary: [], content: null, encrypted_content: `gAAAAAB${this.rng.base62(this.rng.int(200, 1500))}` } });
        const last = s === steps - 1;
        if (last || this.rng.chance(0.3)) {
          const text = last ? this.text.prose(this.rng.int(10, 60)) : this.text.sentence();
          lines.push({ timestamp: at(), type: 'event_msg', payload: { type: 'agent_message', message: text, phase: last ? 'final_answer' : 'commentary' } });
          lines.push({ timestamp: at(), type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }], phase: last ? 'final_answer' : 'commentary' } });
        }
        const call = last ? null : this.rng.weighted([['exec', 6], ['patch', 2], ['search', 1]] as const);
        const callId = `call_${this.rng.base62(24)}`;
        if (call === 'exec') {
          const cmd = this.rng.pick(['rg -n "usage" src', 'sed -n \'1,200p\' src/report.ts', 'npm test -- --run usage', 'git status --short', 'ls -la']);
          lines.push({ timestamp: at(), type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd, workdir: cwd, yield_time_ms: 1000, max_output_tokens: 12000 }), call_id: callId } });
        } else if (call === 'patch') {
          const file = `src/${this.text.ident()}.ts`;
          lines.push({ timestamp: at(), type: 'response_item', payload: { type: 'custom_tool_call', status: 'completed', call_id: callId, name: 'apply_patch', input: `*** Begin Patch\n*** Update File: ${file}\n@@\n-${this.text.code(1)}\n+${this.text.code(1)}\n*** End Patch\n` } });
        } else if (call === 'search') {
          const query = this.text.words(5);
          lines.push({ timestamp: at(), type: 'event_msg', payload: { type: 'web_search_end', call_id: `ws_${this.rng.hex(40)}`, query, action: { type: 'search', query } } });
          lines.push({ timestamp: at(), type: 'response_item', payload: { type: 'web_search_call', status: 'completed', action: { type: 'search', query } } });
        }
        // The call that produced this step, counted after it streamed.
        context += this.rng.int(300, 6_000);
        const cached = this.rng.chance(0.7) ? Math.floor(context * this.rng.int(80, 99) / 100 / 128) * 128 : 0;
        const output = this.rng.int(30, 900);
        const reasoning = this.rng.int(0, Math.floor(output / 2));
        const lastUsage: Usage = { input_tokens: context, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: reasoning, total_tokens: context + output };
        total = add(total, lastUsage);
        if (!o.desktop) {
          if (t === 0 && s === 0 && this.rng.chance(0.3)) lines.push({ timestamp: at(), type: 'event_msg', payload: { type: 'token_count', info: null, rate_limits: { primary: { used_percent: 3.0 } } } });
          const tc: Line = { timestamp: at(), type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { ...total }, last_token_usage: lastUsage, model_context_window: 258400 }, rate_limits: null } };
          lines.push(tc);
          // Codex writes the count again when only the rate limits changed: same total, not a new call.
          if (this.rng.chance(0.15)) lines.push({ ...tc, timestamp: at() });
        }
        if (call === 'exec' || call === 'patch') {
          this.clock.tick(100, 4_000, this.rng);
          const code = this.rng.chance(0.12) ? 1 : 0;
          if (call === 'exec') {
            lines.push({ timestamp: at(), type: 'event_msg', payload: { type: 'exec_command_end', call_id: callId, turn_id: turnId, exit_code: code, status: 'completed', aggregated_output: this.text.code(3) } });
            lines.push({ timestamp: at(), type: 'response_item', payload: { type: 'function_call_output', call_id: callId, output: `Chunk ID: ${this.rng.hex(6)}\nWall time: 0.${this.rng.int(10, 99)} seconds\nProcess exited with code ${code}\nOutput:\n${this.text.code(this.rng.int(1, 20))}` } });
          } else {
            lines.push({ timestamp: at(), type: 'event_msg', payload: { type: 'patch_apply_end', call_id: callId, turn_id: turnId, success: code === 0, stdout: 'Success. Updated the following files:\n' } });
            lines.push({ timestamp: at(), type: 'response_item', payload: { type: 'custom_tool_call_output', call_id: callId, output: JSON.stringify({ output: code === 0 ? 'Success. Updated the following files:\n' : 'apply_patch verification failed', metadata: { exit_code: code, duration_seconds: 0.1 } }) } });
          }
        }
        if (aborted && s === 1) break;
      }
      if (aborted) {
        lines.push({ timestamp: at(), type: 'event_msg', payload: { type: 'turn_aborted', turn_id: turnId, reason: 'interrupted' } });
        break;
      }
      if (!o.desktop) lines.push({ timestamp: at(), type: 'event_msg', payload: { type: 'task_complete', turn_id: turnId, last_agent_message: null } });
      this.clock.tick(30_000, 900_000, this.rng);
    }
    return lines;
  }
}
