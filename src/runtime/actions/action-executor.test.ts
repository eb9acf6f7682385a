import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { cp, writePlaneRoot } from '../../../test/plane-root.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { MemoryExecutionEnv } from '../env/memory-env.js';
import { ActionExecutor, BASH_REPEAT_LIMIT } from './action-executor.js';
import { createDefaultHandlerMap } from './handler-map.js';
import { InspectionLedger } from './inspection-ledger.js';
import { findTool, registryToolNames, registryToolSpecs } from './registry-fallback.js';
import { mcpTools } from '../../surfaces/mcp/tool-list.js';
import type { ActionContext } from './types.js';

let store: SqliteStore;

beforeAll(async () => {
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  const root = writePlaneRoot(tempDir('hs-plane-'), [cp.sessionStart('SES-EXEC0001', 0), cp.turn('SES-EXEC0001', 1, 'hi', 'hello', 5), cp.sessionEnd('SES-EXEC0001', 1, 60)]);
  await ingestPaths(store, [root]);
});
afterAll(async () => {
  await store.close();
});

function context(extra: Partial<ActionContext> = {}): ActionContext {
  return { env: new MemoryExecutionEnv({ commands: { 'make test': { exitCode: 2, stderr: 'boom\n' }, 'echo ok': { stdout: 'ok\n' } } }), inspectionLedger: new InspectionLedger(), turn: 1, ...extra };
}

describe('ActionExecutor: registry fall-through', () => {
  it('runs list_sessions on the real store and returns its envelope as JSON', async () => {
    const r = await new ActionExecutor().execute({ id: 'c1', name: 'list_sessions', arguments: {} }, context({ store }));
    expect(r.isError).toBe(false);
    const envelope = JSON.parse(r.content);
    expect(envelope).toMatchObject({ status: 'ok', count: 1 });
    expect(envelope.sessions[0]).toMatchObject({ session_id: 'SES-EXEC0001', status: 'completed' });
    expect(r.data).toEqual(envelope);
    expect(r.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('turns a validation error envelope into a failed call', async () => {
    const r = await new ActionExecutor().execute({ id: 'c2', name: 'list_sessions', arguments: { limit: 'lots' } }, context({ store }));
    expect(r.isError).toBe(true);
    const envelope = JSON.parse(r.content);
    expect(envelope).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
    expect(envelope.error).toContain('limit');
  });

  it('passes tool errors through (an unknown session id)', async () => {
    const r = await new ActionExecutor().execute({ id: 'c3', name: 'session_overview', arguments: { session_id: 'SES-NOPE' } }, context({ store }));
    expect(r.isError).toBe(true);
    expect(JSON.parse(r.content)).toMatchObject({ status: 'error', code: 'SESSION_NOT_FOUND' });
  });

  it('says when a registry tool has no store to run on', async () => {
    const r = await new ActionExecutor().execute({ id: 'c4', name: 'list_sessions', arguments: {} }, context());
    expect(r).toMatchObject({ isError: true, content: 'list_sessions needs the Hindsight store, which is not open in this run.' });
  });

  it('lists the names that exist for a tool nobody knows', async () => {
    const r = await new ActionExecutor().execute({ id: 'c5', name: 'teleport', arguments: {} }, context({ store }));
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/^Unknown tool "teleport"\. Tools that exist: read, edit, write, bash, search_memory, save_memory, view_image, list_sessions, /);
    const withoutRegistry = await new ActionExecutor({ registry: false }).execute({ id: 'c6', name: 'list_sessions', arguments: {} }, context({ store }));
    expect(withoutRegistry.content).toBe('Unknown tool "list_sessions". Tools that exist: read, edit, write, bash, search_memory, save_memory, view_image.');
  });
});

describe('ActionExecutor: arguments', () => {
  it('refuses raw-string arguments, arrays and schema mismatches with a sentence', async () => {
    const executor = new ActionExecutor();
    const raw = await executor.execute({ id: 'c1', name: 'read', arguments: '{"path": "a.txt"' }, context());
    expect(raw).toMatchObject({ isError: true, content: 'read: the arguments were not a JSON object: {"path": "a.txt"' });
    const arr = await executor.execute({ id: 'c2', name: 'read', arguments: [] as unknown as Record<string, unknown> }, context());
    expect(arr.content).toBe('read: the arguments were not a JSON object: []');
    const bad = await executor.execute({ id: 'c3', name: 'read', arguments: { path: 'a', offset: 0, extra: 1 } }, context());
    expect(bad.isError).toBe(true);
    expect(bad.content).toMatch(/^Invalid arguments for read: offset: Number must be greater than or equal to 1; arguments: Unrecognized key\(s\) in object: 'extra'\.$/);
  });

  it('does not run a call once the signal is aborted', async () => {
    const ctx = context({ signal: AbortSignal.abort() });
    const r = await new ActionExecutor().execute({ id: 'c1', name: 'bash', arguments: { command: 'echo ok' } }, ctx);
    expect(r).toMatchObject({ isError: true, content: 'bash was not run: the run was aborted.' });
    expect((ctx.env as MemoryExecutionEnv).ran).toEqual([]);
  });

  it('a custom handler map can drop tools', async () => {
    const handlers = createDefaultHandlerMap();
    handlers.delete('bash');
    const r = await new ActionExecutor({ handlers, registry: false }).execute({ id: 'c1', name: 'bash', arguments: { command: 'echo ok' } }, context());
    expect(r.content).toContain('Unknown tool "bash"');
  });
});

describe('ActionExecutor: bash repetition guard', () => {
  it('refuses the third identical command in a turn without running it, and forgets at resetTurn', async () => {
    const executor = new ActionExecutor();
    const ctx = context();
    const env = ctx.env as MemoryExecutionEnv;
    const bash = (command: string) => executor.execute({ id: 'b', name: 'bash', arguments: { command } }, ctx);
    expect(BASH_REPEAT_LIMIT).toBe(3);
    expect((await bash('make test')).content).toContain('exit code 2');
    expect((await bash('  make test ')).content).toContain('exit code 2');
    await bash('echo ok'); // a different command does not count towards it
    const third = await bash('make test');
    expect(third).toMatchObject({ isError: true, data: { guard: 'bash_repetition', repeated: 3 } });
    expect(third.content).toContain('already run 2 times this turn');
    expect((await bash('make test')).data).toMatchObject({ repeated: 4 });
    expect(env.ran.map((r) => r.cmd)).toEqual(['make test', '  make test ', 'echo ok']);
    executor.resetTurn();
    expect((await bash('make test')).content).toContain('exit code 2');
    expect(env.ran).toHaveLength(4);
  });
});

describe('registryToolSpecs', () => {
  it('converts registry tools from their zod schemas, in the order asked', () => {
    const specs = registryToolSpecs(['session_overview', 'list_sessions']);
    expect(specs.map((s) => s.name)).toEqual(['session_overview', 'list_sessions']);
    const list = specs[1]!;
    expect(list.description.length).toBeGreaterThan(20);
    expect(list.parameters).toMatchObject({ type: 'object' });
    expect(Object.keys(list.parameters.properties as object)).toContain('limit');
    expect(list.parameters).not.toHaveProperty('$schema');
    expect(registryToolNames()).toContain('list_sessions');
  });

  it('gives the same input schemas as the full MCP listing', () => {
    const names = registryToolNames();
    const mcp = mcpTools({ tools: names.map((n) => findTool(n)!), full: true });
    expect(registryToolSpecs(names).map((s) => [s.name, s.description, s.parameters])).toEqual(mcp.map((t) => [t.name, t.description, t.inputSchema]));
  });

  it('refuses a name the registry does not have, listing those it has', () => {
    expect(() => registryToolSpecs(['nope'])).toThrow(/No registry tool "nope"\. Registry tools: list_sessions, /);
  });
});
