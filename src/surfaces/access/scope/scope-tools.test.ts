// Every registry tool through a team token of project A on a store holding other projects too:
// B's sessions answer not-found, B's rows and lines never appear, counts are A's alone. A new
// tool without a case here fails the test, so scope is decided for each tool on purpose.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../../../../test/helpers.js';
import { postgresUnavailable } from '../../../store/conformance/engines.js';
import { findTool, TOOLS } from '../../../tools/registry.js';
import type { Principal } from '../principal.js';
import { runToolAs } from '../run-as.js';
import { A_SESSION, B_SESSION, CP_SESSION, foreignMarks, PROJECT_A, PROJECT_B, teamFixture, type TeamFixture } from '../test-team.js';

type Json = Record<string, any>;
type Run = (who: Principal, tool: string, args: Json) => Promise<Json>;

interface ScopeCase {
  /** Arguments about A: a token of A gets `code` (default ok), and nothing foreign in the answer. */
  own: { args: Json; code?: string }[];
  /** Arguments naming B's data: the admin gets ok, a token of A gets `code`. */
  foreign: { args: Json; code: string }[];
  /** Counts: the token's answer against the admin's filtered to A. */
  check?: (run: Run, f: TeamFixture) => Promise<void>;
}

const ADMIN: Principal = { kind: 'admin' };
const TEAM_A: Principal = { kind: 'team', tokenId: 'tk_a', user: 'ana', projects: [PROJECT_A], readOnly: false };
const NOT_FOUND = 'SESSION_NOT_FOUND';
const MACHINE = 'MACHINE_TOOL_REFUSED';

const CASES: Record<string, ScopeCase> = {
  list_sessions: {
    own: [{ args: { limit: 500, top_level_only: false } }, { args: {} }],
    foreign: [],
    async check(run, f) {
      const mine = await run(TEAM_A, 'list_sessions', { limit: 500, top_level_only: false });
      const admin = await run(ADMIN, 'list_sessions', { limit: 500, top_level_only: false, project: PROJECT_A });
      expect(mine.count).toBe(f.sessionsByProject.get(PROJECT_A)!.length);
      expect(mine.count).toBe(admin.count);
      expect(mine.sessions.map((s: Json) => s.project)).toEqual(Array(mine.count).fill(PROJECT_A));
      const paged = await run(TEAM_A, 'list_sessions', { limit: 1, offset: 1, top_level_only: false });
      expect(paged).toMatchObject({ count: mine.count, returned: 1 });
      expect((await run(TEAM_A, 'list_sessions', { project: '-path-to-Demo' })).count).toBe(0);
    },
  },
  session_overview: { own: [{ args: { session_id: A_SESSION } }], foreign: [{ args: { session_id: B_SESSION }, code: NOT_FOUND }, { args: { session_id: CP_SESSION }, code: NOT_FOUND }] },
  reconstruct_session: { own: [{ args: { session_id: A_SESSION, limit: 50 } }], foreign: [{ args: { session_id: B_SESSION }, code: NOT_FOUND }] },
  query_ledger: {
    own: [{ args: { session_id: A_SESSION, ledger: 'transcript', limit: 5 } }],
    foreign: [{ args: { ledger: 'governance' }, code: 'NO_PLANE_ROOT' }, { args: { session_id: CP_SESSION, ledger: 'ho2m' }, code: NOT_FOUND }],
  },
  query_ledger_full: {
    own: [{ args: { session_id: A_SESSION, ledger: 'transcript', limit: 5 } }],
    foreign: [{ args: { ledger: 'ho2m', limit: 5 }, code: 'NO_PLANE_ROOT' }, { args: { session_id: B_SESSION, ledger: 'transcript' }, code: NOT_FOUND }],
  },
  grep_jsonl: {
    own: [{ args: { pattern: 'sessionId', session_id: A_SESSION, limit: 20 } }],
    foreign: [{ args: { pattern: 'SESSION', ledger: 'ho2m', limit: 5 }, code: 'NO_PLANE_ROOT' }, { args: { pattern: '.', session_id: B_SESSION }, code: NOT_FOUND }],
  },
  search_sessions: {
    own: [{ args: { query: 'spotter', limit: 100 } }, { args: { query: 'budget' } }],
    foreign: [],
    async check(run) {
      for (const query of ['spotter', 'the', 'budget']) {
        const mine = await run(TEAM_A, 'search_sessions', { query, limit: 100 });
        const admin = await run(ADMIN, 'search_sessions', { query, limit: 100, project: PROJECT_A });
        expect(mine.count, query).toBe(admin.count);
        expect(mine.matches.every((m: Json) => m.project === PROJECT_A), query).toBe(true);
      }
      // Pages and neighbouring messages are the admin's, filtered to A, whatever the page.
      for (const page of [{ limit: 3, offset: 0 }, { limit: 4, offset: 2, context_lines: 2 }, { limit: 2, offset: 5, scope: 'transcript' }]) {
        const mine = await run(TEAM_A, 'search_sessions', { query: 'spotter', ...page });
        const admin = await run(ADMIN, 'search_sessions', { query: 'spotter', project: PROJECT_A, ...page });
        expect(mine, JSON.stringify(page)).toEqual(admin);
      }
      // Two projects (nothing pushed down): the admin's whole answer filtered, then paged.
      const two: Principal = { ...TEAM_A, projects: [PROJECT_A, PROJECT_B] };
      for (const page of [{ limit: 3, offset: 1, context_lines: 2 }, { limit: 5, offset: 4, scope: 'transcript', context_lines: 1 }]) {
        const mine = await run(two, 'search_sessions', { query: 'spotter', ...page });
        const all = await run(ADMIN, 'search_sessions', { query: 'spotter', ...page, limit: 500, offset: 0 });
        const expected = all.matches.filter((m: Json) => [PROJECT_A, PROJECT_B].includes(m.project));
        expect(mine.count, JSON.stringify(page)).toBe(expected.length);
        expect(mine.matches.length, JSON.stringify(page)).toBe(page.limit);
        expect(mine.matches, JSON.stringify(page)).toEqual(expected.slice(page.offset, page.offset + page.limit));
      }
      const whole = await run(ADMIN, 'search_sessions', { query: 'spotter', limit: 100 });
      expect(whole.count).toBeGreaterThan((await run(TEAM_A, 'search_sessions', { query: 'spotter', limit: 100 })).count);
    },
  },
  get_session: { own: [{ args: { session_id: A_SESSION } }], foreign: [{ args: { session_id: B_SESSION }, code: NOT_FOUND }, { args: { session_id: 'd6e0' }, code: NOT_FOUND }] },
  get_events: { own: [{ args: { session_id: A_SESSION, limit: 20 } }], foreign: [{ args: { session_id: CP_SESSION }, code: NOT_FOUND }] },
  analyze_events: {
    own: [{ args: { session_id: A_SESSION, analysis_type: 'summary' } }],
    foreign: [{ args: { session_id: B_SESSION, analysis_type: 'usage' }, code: NOT_FOUND }],
  },
  export_session: {
    own: [{ args: { session_id: A_SESSION, format: 'jsonl' } }, { args: { session_id: A_SESSION, format: 'replay' } }],
    foreign: [{ args: { session_id: B_SESSION, format: 'markdown' }, code: NOT_FOUND }],
  },
  usage_report: {
    own: [{ args: { group_by: 'project' } }, { args: { group_by: 'session' } }, { args: { group_by: 'daily' } }],
    foreign: [],
    async check(run) {
      const mine = await run(TEAM_A, 'usage_report', { group_by: 'project' });
      const admin = await run(ADMIN, 'usage_report', { group_by: 'project', project: PROJECT_A });
      expect(mine.rows.map((r: Json) => r.key)).toEqual([PROJECT_A]);
      expect(mine.totals).toEqual(admin.totals);
    },
  },
  inspect_metrics: {
    own: [{ args: {} }, { args: { view: 'session', session_id: A_SESSION } }, { args: { view: 'stats', days: 3650, until: '2026-12-31' } }],
    foreign: [{ args: { view: 'session', session_id: B_SESSION }, code: NOT_FOUND }],
    async check(run) {
      const mine = await run(TEAM_A, 'inspect_metrics', {});
      const admin = await run(ADMIN, 'inspect_metrics', { project: PROJECT_A });
      expect(mine.count).toBe(admin.count);
      expect(mine.sessions.map((s: Json) => s.session_id)).toEqual(admin.sessions.map((s: Json) => s.session_id));
      const stats = await run(TEAM_A, 'inspect_metrics', { view: 'stats', days: 3650, until: '2026-12-31' });
      const adminStats = await run(ADMIN, 'inspect_metrics', { view: 'stats', days: 3650, until: '2026-12-31', project: PROJECT_A });
      expect(stats).toEqual(adminStats);
    },
  },
  rewind_session: {
    own: [{ args: { session_id: A_SESSION, to_turn: 1 } }],
    foreign: [{ args: { session_id: B_SESSION, to_turn: 1 }, code: NOT_FOUND }],
  },
  raw_lines: { own: [{ args: { session_id: A_SESSION, limit: 50 } }], foreign: [{ args: { session_id: CP_SESSION, limit: 3 }, code: NOT_FOUND }] },
  sources: {
    own: [{ args: { section: 'files', limit: 500 } }, { args: { section: 'defects', limit: 500 } }, { args: {} }],
    foreign: [],
    async check(run, f) {
      const mine = await run(TEAM_A, 'sources', { section: 'files', limit: 500 });
      const admin = await run(ADMIN, 'sources', { section: 'files', limit: 500 });
      const ids = new Set(f.sessionsByProject.get(PROJECT_A));
      const expected = admin.files.filter((x: Json) => ids.has(x.session_id));
      expect(mine.files).toEqual(expected);
      expect(mine.count).toBe(expected.length);
      expect(mine.totals.sessions).toBe(ids.size);
      expect(mine.totals.files).toBe(expected.filter((x: Json) => !x.superseded).length);
      expect(Object.keys(mine.totals.by_format)).toEqual(['claude-code']);
    },
  },
  verify_ledger: { own: [], foreign: [{ args: { ledger: 'governance' }, code: 'NO_PLANE_ROOT' }] },
  list_files: { own: [{ args: {}, code: MACHINE }], foreign: [] },
  read_file: { own: [{ args: { path: 'package.json' }, code: MACHINE }], foreign: [] },
  sync_status: { own: [{ args: {}, code: MACHINE }], foreign: [] },
  // Reads neither the store nor the machine: a team token may parse model output.
  parse_tool_calls: { own: [{ args: { parser: 'hermes', text: '<tool_call>{"name": "f", "arguments": {}}</tool_call>' } }], foreign: [] },
};

const unavailable = await postgresUnavailable();

describe.each(['sqlite', 'postgres'] as const)('a token of project A on %s', (kind) => {
  let f: TeamFixture;
  const run: Run = async (who, name, args) => (await runToolAs(who, findTool(name)!, args, { store: f.store, workspaceRoot: REPO })) as Json;

  beforeAll(async () => {
    if (kind === 'postgres' && unavailable) return;
    f = await teamFixture(kind);
  }, 120_000);
  afterAll(async () => {
    await f?.store.close();
    await f?.engine.dispose();
  });

  it.skipIf(kind === 'postgres' && unavailable !== null).each(TOOLS.map((t) => t.name))('%s sees project A only', async (name) => {
    const c = CASES[name];
    expect(c, `${name} has no scope case in scope-tools.test.ts: decide what a team token may see of it`).toBeDefined();
    const marks = foreignMarks(f, [PROJECT_A]);
    for (const { args, code } of c!.own) {
      const res = await run(TEAM_A, name, args);
      if (code) expect(res, JSON.stringify(args)).toMatchObject({ status: 'error', code });
      else expect(res.status, `${JSON.stringify(args)}: ${res.error}`).toBe('ok');
      const text = JSON.stringify(res);
      for (const mark of marks) expect(text.includes(mark), `${name} ${JSON.stringify(args)} shows ${mark}`).toBe(false);
      if (code) expect((await run(ADMIN, name, args)).status, `the admin may run ${name}`).toBe('ok');
    }
    for (const { args, code } of c!.foreign) {
      expect((await run(ADMIN, name, args)).status, `the admin sees ${JSON.stringify(args)}`).toBe('ok');
      expect(await run(TEAM_A, name, args), JSON.stringify(args)).toMatchObject({ status: 'error', code });
    }
    await c!.check?.(run, f);
  });

  it.skipIf(kind === 'postgres' && unavailable !== null)('a token of a Control Plane root sees its ledgers and sessions, nothing else', async () => {
    const plane: Principal = { kind: 'team', tokenId: 'tk_p', user: 'pat', projects: [f.planeRoot], readOnly: false };
    for (const [name, args] of [
      ['query_ledger', { ledger: 'governance', limit: 50 }],
      ['query_ledger_full', { ledger: 'ho2m', limit: 50 }],
      ['grep_jsonl', { pattern: 'SESSION', ledger: 'ho2m', limit: 50 }],
      ['verify_ledger', { ledger: 'governance' }],
      ['raw_lines', { session_id: CP_SESSION, limit: 50 }],
    ] as const) {
      expect(await run(plane, name, args), name).toEqual(await run(ADMIN, name, args));
    }
    const mine = await run(plane, 'list_sessions', { limit: 500 });
    expect(mine.count).toBe(f.sessionsByProject.get(f.planeRoot)!.length);
    const files = await run(plane, 'sources', { section: 'files', limit: 500 });
    const all = await run(ADMIN, 'sources', { section: 'files', limit: 500 });
    expect(files.files).toEqual(all.files.filter((x: Json) => x.root === f.planeRoot));
    expect(await run(plane, 'session_overview', { session_id: A_SESSION })).toMatchObject({ code: NOT_FOUND });
  });

  it.skipIf(kind === 'postgres' && unavailable !== null)('naming a Claude Code root path as a project gives nothing of it', async () => {
    const all = await run(ADMIN, 'sources', { section: 'files', limit: 500 });
    const ccRoot = all.files.find((x: Json) => x.format === 'claude-code').root as string;
    const odd: Principal = { kind: 'team', tokenId: 'tk_o', user: 'oz', projects: [ccRoot], readOnly: false };
    expect((await run(odd, 'list_sessions', {})).count).toBe(0);
    expect((await run(odd, 'sources', { section: 'files' })).count).toBe(0);
    expect((await run(odd, 'sources', { section: 'defects' })).count).toBe(0);
    expect((await run(odd, 'sources', {})).totals).toMatchObject({ roots: 0, files: 0, sessions: 0, events: 0, bytes: 0 });
    expect(await run(odd, 'raw_lines', { session_id: A_SESSION })).toMatchObject({ code: NOT_FOUND });
  });
});
