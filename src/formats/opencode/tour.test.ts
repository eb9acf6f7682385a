// Every tool on a generated OpenCode folder (test/format-tour.ts), each answer checked against what
// the database itself says (read here with plain SQL, independently of the importer).

import Database from 'better-sqlite3';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tourEveryTool, type Tour } from '../../../test/format-tour.js';
import { findTool } from '../../tools/registry.js';
import { runTool } from '../../tools/tool.js';
import { makeHome, tool } from './test-home.js';

type Obj = Record<string, any>;

interface Truth {
  title: string;
  parent: string | null;
  directory: string;
  started: string;
  firstPrompt: string;
  toolCalls: number;
  models: string[];
  ending: 'done' | 'streaming' | 'aborted';
}

/** What the rows say about each session, straight from SQLite. */
function truth(home: string): Map<string, Truth> {
  const db = new Database(join(home, 'opencode.db'), { readonly: true });
  const out = new Map<string, Truth>();
  for (const s of db.prepare('SELECT id, title, parent_id, directory, time_created FROM session').all() as Obj[]) {
    const messages = db.prepare('SELECT id, time_created, data FROM message WHERE session_id = ? ORDER BY time_created, id').all(s.id) as Obj[];
    const parts = db.prepare('SELECT message_id, time_created, data FROM part WHERE session_id = ? ORDER BY message_id, id').all(s.id) as Obj[];
    const data = (r: Obj) => JSON.parse(r.data as string) as Obj;
    const firstUser = messages.find((m) => data(m).role === 'user')!;
    const prompt = parts.find((p) => p.message_id === firstUser.id && data(p).type === 'text' && !data(p).synthetic)!;
    const assistants = messages.map(data).filter((m) => m.role === 'assistant');
    const last = assistants[assistants.length - 1]!;
    out.set(s.id, {
      title: s.title,
      parent: s.parent_id,
      directory: s.directory,
      started: new Date(Math.min(s.time_created, ...messages.map((m) => m.time_created), ...parts.map((p) => p.time_created))).toISOString(),
      firstPrompt: data(prompt).text,
      toolCalls: parts.filter((p) => data(p).type === 'tool').length,
      models: [...new Set(assistants.map((m) => m.modelID as string))],
      ending: last.error ? 'aborted' : last.time.completed === undefined ? 'streaming' : 'done',
    });
  }
  db.close();
  return out;
}

describe('every tool on OpenCode sessions', () => {
  let home: string;
  let tour: Tour;
  let facts: Map<string, Truth>;
  const result = (id: string, key: string) => tour.results.get(id)!.get(key) as Obj;

  beforeAll(async () => {
    ({ home } = makeHome({ seed: 5, sessions: 5, layout: 'both' }));
    facts = truth(home);
    tour = await tourEveryTool(home, 'opencode', 'the');
  }, 120_000);

  it('answers every call', () => {
    expect(tour.failures).toEqual([]);
  });

  it('lists the top-level sessions with title, first prompt, models, status and start', () => {
    const roots = [...facts.entries()].filter(([, t]) => t.parent === null);
    expect(tour.sessions.map((s) => s.session_id).sort()).toEqual(roots.map(([id]) => id).sort());
    for (const s of tour.sessions as Obj[]) {
      const t = facts.get(s.session_id)!;
      expect(s.format).toBe('opencode');
      expect(s.title).toBe(t.title);
      // The first prompt, flattened and cut at 160 characters with an ellipsis.
      expect(t.firstPrompt.replace(/\s+/g, ' ').startsWith((s.first_user_message as string).replace(/…$/, ''))).toBe(true);
      expect((s.first_user_message as string).length).toBeGreaterThan(20);
      expect(s.models).toEqual(t.models);
      expect(s.status).toBe(t.ending === 'aborted' ? 'interrupted' : t.ending === 'streaming' ? (s.status === 'interrupted' ? 'interrupted' : 'active') : 'completed');
      expect(s.started_at).toBe(t.started);
      expect(s.project).toBe(t.directory.replace(/[^A-Za-z0-9]/g, '-'));
    }
    expect(tour.sessions.filter((s) => s.status === 'completed').length).toBeGreaterThanOrEqual(2);
    expect(tour.sessions.some((s) => facts.get(s.session_id as string)!.ending === 'aborted' && s.status === 'interrupted')).toBe(true);
  });

  it('overviews count each tool call once and quote the first prompt; sub-agents hang under their parent', () => {
    for (const s of tour.sessions as Obj[]) {
      const id = s.session_id as string;
      const o = result(id, 'session_overview:{}').summary as Obj;
      expect(o.about).toContain(facts.get(id)!.firstPrompt.slice(0, 30));
      const own = result(id, 'inspect_metrics:{"view":"session"}').session as Obj;
      const children = [...facts.entries()].filter(([, t]) => t.parent === id);
      expect(own.tool_calls).toBe(facts.get(id)!.toolCalls + children.reduce((n, [, t]) => n + t.toolCalls, 0));
      expect(s.children).toBe(children.length);
    }
    const withChild = (tour.sessions as Obj[]).find((s) => s.children > 0);
    expect(withChild).toBeDefined();
  });

  it('shows each row as evidence with its table and id, and finds it again by grep', () => {
    const id = tour.sessions[0]!.session_id as string;
    const raw = result(id, 'raw_lines:{}');
    expect(raw.files[0].file).toBe(`opencode.db/messages/${id}.jsonl`);
    const first = JSON.parse(raw.lines[0].raw as string) as Obj;
    expect(first).toMatchObject({ table: 'message', session_id: id });
    expect(first.id).toMatch(/^msg_/);
    const grep = result(id, 'grep_jsonl:{"pattern":"\\""}');
    expect(grep.status).toBe('ok');
    expect(JSON.stringify(grep)).toContain('"table\\":\\"part\\"');
  });

  it('exports the conversation: replay with the prompt and tool calls, jsonl with the rows', () => {
    const id = tour.sessions[tour.sessions.length - 1]!.session_id as string;
    const replay = (result(id, 'export_session:{"format":"replay"}').content as string).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Obj);
    expect(replay[0]).toMatchObject({ session: id, format: 'opencode', cwd: facts.get(id)!.directory });
    expect(replay.find((e) => e.r === 'user')!.m).toBe(facts.get(id)!.firstPrompt.replace(/\s+/g, ' ').trim().slice(0, replay.find((e) => e.r === 'user')!.m.length));
    const jsonl = (result(id, 'export_session:{"format":"jsonl"}').content as string).split('\n').filter(Boolean);
    expect(jsonl.every((l) => ['session', 'message', 'part'].includes((JSON.parse(l) as Obj).table))).toBe(true);
    expect(JSON.stringify(result(id, 'export_session:{"format":"markdown"}'))).toContain(facts.get(id)!.firstPrompt.slice(0, 30));
  });

  it('usage by day and by session, searched prompts, and files the session changed', () => {
    const daily = tour.global.get('usage_report:{"group_by":"daily"}') as Obj;
    expect(daily.totals.calls).toBeGreaterThan(0);
    const search = tour.global.get('search_sessions:{"query":"the"}') as Obj;
    expect(search.status).toBe('ok');
    const edited = (tour.sessions as Obj[]).flatMap((s) => (result(s.session_id, 'inspect_metrics:{"view":"session"}').session as Obj).files as string[]);
    expect(edited.length).toBeGreaterThan(0);
    expect(edited.every((f) => f.startsWith('/') && f.endsWith('.ts'))).toBe(true);
  });

  it('refuses to rewind: the database is only ever read', async () => {
    const id = tour.sessions[0]!.session_id as string;
    const answer = (await runTool(findTool('rewind_session')!, { session_id: id, to_turn: 1 }, { store: tour.store })) as Obj;
    expect(answer.status).toBe('error');
    expect(JSON.stringify(answer)).toContain('read-only');
    await tool(tour.store, 'sources', {});
  });
});
