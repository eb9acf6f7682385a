// The HTTP app through app.request on a real fixture store: every tool reachable by POST with the
// exact envelope runTool gives, statuses from the error codes, and the GET views.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTool, TOOLS } from '../../tools/registry.js';
import { runTool } from '../../tools/tool.js';
import { createHttpApp } from './app.js';
import { GET_ROUTES } from './conveniences.js';
import { statusForCode } from './status-map.js';
import { CC_SESSION, CP_SESSION, fixtureStore, type TestStore } from './test-store.js';

type Json = Record<string, any>;
const jsonOf = (res: Response) => res.json() as Promise<Json>;

let fx: TestStore;
let app: ReturnType<typeof createHttpApp>;

const post = (path: string, body?: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  app.request(path, { method: 'POST', body, headers });

beforeAll(async () => {
  fx = await fixtureStore();
  app = createHttpApp({ store: fx.store, workspaceRoot: fx.workspace });
});
afterAll(() => fx.store.close());

describe('POST /api/tools/<name>', () => {
  it('reaches every tool of the registry and answers exactly the envelope runTool gives', async () => {
    for (const tool of TOOLS) {
      // The tool's first example that answers ok (src/tools/<tool>/examples.ts; src/surfaces/tool-examples.test.ts runs them all).
      const args = tool.examples.find((e) => e.status === 'ok')?.args;
      expect(args, `${tool.name} needs an example that answers ok`).toBeDefined();
      const res = await post(`/api/tools/${tool.name}`, JSON.stringify(args));
      const body = await jsonOf(res);
      const direct = await runTool(tool, args, { store: fx.store, workspaceRoot: fx.workspace });
      expect(body, tool.name).toEqual(direct);
      // A tool added later without example arguments still has to be reachable with the right status.
      expect(body.status, `${tool.name}: ${JSON.stringify(body).slice(0, 300)}`).toBe('ok');
      expect(res.status, tool.name).toBe(body.status === 'ok' ? 200 : statusForCode(body.code));
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  it('treats an empty body as {} (no content type needed)', async () => {
    const res = await app.request('/api/tools/list_sessions', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toEqual(await runTool(findTool('list_sessions')!, {}, { store: fx.store }));
  });

  it('maps error codes to statuses and keeps the envelope', async () => {
    const cases: [string, Record<string, unknown>, number, string][] = [
      ['session_overview', { session_id: 'no-such-session' }, 404, 'SESSION_NOT_FOUND'],
      ['list_sessions', { limit: 'five' }, 400, 'INVALID_ARGUMENTS'],
      ['list_sessions', { nonsense: true }, 400, 'INVALID_ARGUMENTS'],
      ['get_session', { session_id: 'SES-' }, 409, 'AMBIGUOUS_SESSION'],
      ['grep_jsonl', { pattern: '(a)\\1', ledger: 'ho2m' }, 400, 'INVALID_PATTERN'],
      ['read_file', { path: '../escape.txt' }, 400, 'PATH_ESCAPES_ROOT'],
      ['read_file', { path: 'missing.txt' }, 404, 'FILE_NOT_FOUND'],
      ['rewind_session', { session_id: CP_SESSION, to_turn: 1 }, 422, 'REWIND_REFUSED'],
    ];
    for (const [name, args, status, code] of cases) {
      const res = await post(`/api/tools/${name}`, JSON.stringify(args));
      const body = await jsonOf(res);
      expect(body, name).toEqual(await runTool(findTool(name)!, args, { store: fx.store, workspaceRoot: fx.workspace }));
      expect([res.status, body.code], name).toEqual([status, code]);
      expect(body.status).toBe('error');
      expect(body.error).toMatch(/\.$|\)$/);
    }
  });

  it('answers 404 naming the known tools for an unknown tool', async () => {
    const res = await post('/api/tools/drop_tables', '{}');
    expect(res.status).toBe(404);
    const body = await jsonOf(res);
    expect(body).toMatchObject({ status: 'error', code: 'UNKNOWN_TOOL' });
    for (const t of TOOLS) expect(body.error).toContain(t.name);
  });

  it('answers 400 MALFORMED_JSON for a body that is not JSON', async () => {
    const res = await post('/api/tools/list_sessions', '{"limit": 5');
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toMatchObject({ status: 'error', code: 'MALFORMED_JSON' });
  });

  it('passes JSON that is not an object to the tool, which rejects it', async () => {
    const res = await post('/api/tools/list_sessions', '[1,2]');
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toMatchObject({ code: 'INVALID_ARGUMENTS' });
  });

  it('answers 415 for a body sent as a form or text', async () => {
    const res = await post('/api/tools/list_sessions', '{"limit":1}', { 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(await jsonOf(res)).toMatchObject({ status: 'error', code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('answers 405 with Allow for the wrong method', async () => {
    const res = await app.request('/api/tools/list_sessions', { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await jsonOf(res)).toMatchObject({ status: 'error', code: 'METHOD_NOT_ALLOWED' });
    const put = await app.request('/api/sessions', { method: 'PUT' });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET']);
  });

  it('answers 404 NOT_FOUND for an unknown /api route', async () => {
    const res = await app.request('/api/nothing/here');
    expect(res.status).toBe(404);
    expect(await jsonOf(res)).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
  });
});

describe('GET views', () => {
  const direct = (name: string, args: Record<string, unknown>) =>
    runTool(findTool(name)!, args, { store: fx.store, workspaceRoot: fx.workspace });

  it('run their tool with path and typed query arguments', async () => {
    const cases: [string, string, Record<string, unknown>][] = [
      ['/api/sessions?limit=3&offset=1&top_level_only=false&format=claude-code', 'list_sessions', { limit: 3, offset: 1, top_level_only: false, format: 'claude-code' }],
      [`/api/sessions/${CC_SESSION}`, 'session_overview', { session_id: CC_SESSION }],
      [`/api/sessions/${CC_SESSION}/timeline?limit=7&offset=2`, 'reconstruct_session', { session_id: CC_SESSION, limit: 7, offset: 2 }],
      [`/api/sessions/${CP_SESSION}/events?event_types=EXCHANGE,DISPATCH&limit=4`, 'get_events', { session_id: CP_SESSION, event_types: ['EXCHANGE', 'DISPATCH'], limit: 4 }],
      ['/api/usage?group_by=monthly', 'usage_report', { group_by: 'monthly' }],
      ['/api/search?q=budget&limit=2', 'search_sessions', { query: 'budget', limit: 2 }],
      ['/api/sources?section=defects', 'sources', { section: 'defects' }],
    ];
    for (const [path, tool, args] of cases) {
      const res = await app.request(path);
      const body = await jsonOf(res);
      expect(body.status, path).toBe('ok');
      expect(res.status).toBe(200);
      expect(body, path).toEqual(await direct(tool, args));
    }
  });

  it('decode session ids with a colon in the path', async () => {
    const list = await direct('list_sessions', { top_level_only: false, limit: 50 });
    const child = (list as unknown as { sessions: { session_id: string }[] }).sessions.find((s) => s.session_id.includes(':'));
    expect(child).toBeDefined();
    const res = await app.request(`/api/sessions/${encodeURIComponent(child!.session_id)}`);
    expect(await jsonOf(res)).toEqual(await direct('session_overview', { session_id: child!.session_id }));
  });

  it('let the tool reject a query value that does not convert', async () => {
    const res = await app.request('/api/sessions?limit=lots');
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toMatchObject({ code: 'INVALID_ARGUMENTS' });
    const missing = await app.request('/api/sessions/nope/timeline');
    expect([missing.status, (await jsonOf(missing)).code]).toEqual([404, 'SESSION_NOT_FOUND']);
  });

  it('never reach a tool that can change files (rewind_session)', () => {
    expect(findTool('rewind_session')?.destructive).toBe(true);
    for (const r of GET_ROUTES) {
      expect(findTool(r.tool), r.tool).toBeDefined();
      expect(findTool(r.tool)?.destructive, r.tool).toBeFalsy();
    }
  });

  it('GET /api/tools is the registry description', async () => {
    const body = await jsonOf(await app.request('/api/tools'));
    expect(body.tools.map((t: { tool_id: string }) => t.tool_id)).toEqual(TOOLS.map((t) => t.name));
  });
});

describe('unexpected exceptions', () => {
  it('answer 500 INTERNAL with a sentence and no stack trace', async () => {
    const broken = await fixtureStore();
    const logged: unknown[] = [];
    const brokenApp = createHttpApp({ store: broken.store, logError: (e) => logged.push(e) });
    await broken.store.close();
    const res = await brokenApp.request('/api/tools/list_sessions', { method: 'POST' });
    expect(res.status).toBe(500);
    const body = await jsonOf(res);
    expect(body).toMatchObject({ status: 'error', code: 'INTERNAL' });
    expect(body.error).toMatch(/^Internal error while answering POST \/api\/tools\/list_sessions: .+ please report it/);
    expect(JSON.stringify(body)).not.toMatch(/\n\s+at /);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(logged).toHaveLength(1);
  });
});
