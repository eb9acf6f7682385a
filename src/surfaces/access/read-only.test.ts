// A read-only team token: every tool's answer is redacted, exact evidence included, searches and
// greps cannot find a secret by its text, and rewind_session is refused (decisions.md).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../../../test/helpers.js';
import { findTool, TOOLS } from '../../tools/registry.js';
import type { Principal } from './principal.js';
import { runToolAs } from './run-as.js';
import { A_SESSION, B_SESSION, PLANTED_KEY, PLANTED_MARK, PROJECT_A, PROJECT_B, teamFixture, type TeamFixture } from './test-team.js';

type Json = Record<string, any>;

const ADMIN: Principal = { kind: 'admin' };
const READER: Principal = { kind: 'team', tokenId: 'tk_r', user: 'rita', projects: [PROJECT_A], readOnly: true };

/** Calls whose answers hold the planted key when not redacted (each checked on the admin first where it can be). */
const CALLS: Record<string, Json[]> = {
  list_sessions: [{ limit: 50 }],
  session_overview: [{ session_id: A_SESSION, redact: false }],
  reconstruct_session: [{ session_id: A_SESSION, verbosity: 'full', include_prompts: true, limit: 30, redact: false }],
  query_ledger: [{ session_id: A_SESSION, ledger: 'transcript', limit: 500 }],
  query_ledger_full: [{ session_id: A_SESSION, ledger: 'transcript', limit: 20 }],
  grep_jsonl: [{ pattern: 'sk-ant', session_id: A_SESSION }, { pattern: 'first ready task', session_id: A_SESSION }],
  search_sessions: [{ query: 'first ready task' }, { query: 'PLANTEDsecret*' }, { query: 'sk ant api03' }],
  get_session: [{ session_id: A_SESSION, redact: false }],
  get_events: [{ session_id: A_SESSION, limit: 10, fields: ['message.content'], redact: false }],
  analyze_events: [{ session_id: A_SESSION, analysis_type: 'summary', redact: false }],
  export_session: [
    { session_id: A_SESSION, format: 'jsonl', redact: false },
    { session_id: A_SESSION, format: 'markdown', redact: false },
  ],
  usage_report: [{ group_by: 'session' }],
  inspect_metrics: [{}, { view: 'session', session_id: A_SESSION }],
  rewind_session: [],
  raw_lines: [{ session_id: A_SESSION, limit: 10 }],
  sources: [{ section: 'files' }],
  verify_ledger: [],
  list_files: [],
  read_file: [],
  sync_status: [],
  parse_tool_calls: [{ parser: 'hermes', text: '<tool_call>{"name": "f", "arguments": {}}</tool_call>' }],
};

describe('a read-only token', () => {
  let f: TeamFixture;
  const run = async (who: Principal, name: string, args: Json) =>
    (await runToolAs(who, findTool(name)!, args, { store: f.store, workspaceRoot: REPO })) as Json;

  beforeAll(async () => {
    f = await teamFixture('sqlite');
  }, 60_000);
  afterAll(() => f?.store.close());

  it('the planted key is in the store, exactly, for the admin', async () => {
    const raw = await run(ADMIN, 'raw_lines', { session_id: A_SESSION, limit: 10 });
    expect(JSON.stringify(raw)).toContain(PLANTED_KEY);
    const grep = await run(ADMIN, 'grep_jsonl', { pattern: 'sk-ant', session_id: A_SESSION });
    expect(grep.count).toBeGreaterThan(0);
    expect((await run(ADMIN, 'search_sessions', { query: 'PLANTEDsecret*' })).count).toBeGreaterThan(0);
  });

  it.each(TOOLS.map((t) => t.name))('%s never shows the key', async (name) => {
    expect(CALLS[name], `${name} has no read-only case in read-only.test.ts`).toBeDefined();
    for (const args of CALLS[name]!) {
      const res = await run(READER, name, args);
      expect(res.status, `${name} ${JSON.stringify(args)}: ${res.error}`).toBe('ok');
      expect(JSON.stringify(res), `${name} ${JSON.stringify(args)}`).not.toContain(PLANTED_MARK);
    }
  });

  it('cannot find the key by grep or search: the matches came from the secret alone', async () => {
    expect((await run(READER, 'grep_jsonl', { pattern: 'sk-ant', session_id: A_SESSION })).count).toBe(0);
    expect((await run(READER, 'grep_jsonl', { pattern: 'PLANTED', session_id: A_SESSION })).count).toBe(0);
    expect((await run(READER, 'search_sessions', { query: 'PLANTEDsecret*' })).count).toBe(0);
    expect((await run(READER, 'search_sessions', { query: 'PLANTEDsecret', scope: 'metadata' })).count).toBe(0);
    // What is not a secret is still found, redacted.
    const grep = await run(READER, 'grep_jsonl', { pattern: 'first ready task', session_id: A_SESSION });
    expect(grep.count).toBe((await run(ADMIN, 'grep_jsonl', { pattern: 'first ready task', session_id: A_SESSION })).count);
    expect(JSON.stringify(grep)).toContain('[REDACTED:api_key]');
    const search = await run(READER, 'search_sessions', { query: 'first ready task' });
    expect(search.count).toBeGreaterThan(0);
  });

  it('is refused rewind_session, dry run included', async () => {
    expect((await run(ADMIN, 'rewind_session', { session_id: A_SESSION, to_turn: 1 })).status).toBe('ok');
    const res = await run(READER, 'rewind_session', { session_id: A_SESSION, to_turn: 1 });
    expect(res).toMatchObject({ status: 'error', code: 'READ_ONLY_TOKEN' });
    expect(res.error).toMatch(/read-only/);
  });

  it('a read-write team token may plan a rewind but not apply it (the store is shared)', async () => {
    const writer: Principal = { ...READER, projects: [PROJECT_B], readOnly: false };
    const plan = await run(writer, 'rewind_session', { session_id: B_SESSION, to_turn: 1 });
    expect(plan).toMatchObject({ status: 'ok', nothing_to_remove: false, applied: false });
    const applied = await run(writer, 'rewind_session', { session_id: B_SESSION, to_turn: 1, apply: true, force: true });
    expect(applied).toMatchObject({ status: 'error', code: 'SCOPED_WRITE_REFUSED' });
    // Refused before any file was touched: the plan is still there to apply.
    expect(await run(writer, 'rewind_session', { session_id: B_SESSION, to_turn: 1 })).toEqual(plan);
  });
});
