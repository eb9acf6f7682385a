// Every default handler through the executor, on the in-memory env and on a real temp folder: the
// same calls must give the same answers on both.

import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import type { ExecutionEnv } from '../env/execution-env.js';
import { MemoryExecutionEnv } from '../env/memory-env.js';
import { NodeExecutionEnv } from '../env/node-env.js';
import { InMemoryAgentMemory } from '../memory/in-memory.js';
import { bindMemory } from '../memory/memory.js';
import { ActionExecutor } from './action-executor.js';
import { handlerToolSpecs } from './handler-map.js';
import { NOT_SENT_NOTE } from './handlers/view-image.js';
import { InspectionLedger } from './inspection-ledger.js';
import { gifBytes, jpegBytes, pngBytes } from './test-images.js';
import type { ActionContext } from './types.js';

const SEED: Record<string, string | Buffer> = {
  'src/app.ts': 'one\ntwo\nthree\nfour\nfive\n',
  'dup.txt': 'x = 1\ny = 2\nx = 1\n',
  'empty.txt': '',
  'img/pic.png': pngBytes(640, 480),
  'img/pic.gif': gifBytes(16, 9),
  'img/pic.jpg': jpegBytes(1024, 768),
  'bin.dat': Buffer.from([1, 0, 2, 0]),
};

interface Workspace {
  env: ExecutionEnv;
  readBack(path: string): Promise<string>;
}

const envs: [string, () => Workspace][] = [
  [
    'MemoryExecutionEnv',
    () => {
      const env = new MemoryExecutionEnv({
        files: SEED,
        commands: { 'echo hi': { stdout: 'hi\n' }, 'false': { exitCode: 1, stderr: 'failed\n' } },
      });
      return { env, readBack: (p) => env.readFile(p) };
    },
  ],
  [
    'NodeExecutionEnv',
    () => {
      const root = realpathSync(tempDir('hs-actions-'));
      for (const [path, content] of Object.entries(SEED)) {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), content);
      }
      // bash -l reads the login profile from $HOME; an empty one keeps this machine's out of the results.
      const home = tempDir('hs-home-');
      return { env: new NodeExecutionEnv(root, { env: { ...process.env, HOME: home } }), readBack: async (p) => readFileSync(join(root, p), 'utf8') };
    },
  ],
];

function setup(make: () => Workspace, limits = {}) {
  const ws = make();
  const memory = new InMemoryAgentMemory();
  const ctx: ActionContext = { env: ws.env, inspectionLedger: new InspectionLedger(), turn: 1, memory: bindMemory(memory, 'run-1') };
  const executor = new ActionExecutor({ limits });
  let n = 0;
  const call = (name: string, args: Record<string, unknown> | string) => executor.execute({ id: `c${++n}`, name, arguments: args }, ctx);
  return { ...ws, ctx, executor, call, memory };
}

describe.each(envs)('handlers on %s', (_name, make) => {
  it('read numbers lines, windows them, and records the range', async () => {
    const { call, ctx } = setup(make);
    const all = await call('read', { path: 'src/app.ts' });
    expect(all).toMatchObject({ isError: false, content: '     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour\n     5\tfive' });
    const window = await call('read', { path: 'src/app.ts', offset: 2, limit: 2 });
    expect(window.content).toBe('     2\ttwo\n     3\tthree\n[Lines 2–3 of 5. More from offset 4.]');
    expect(window.data).toMatchObject({ startLine: 2, endLine: 3, totalLines: 5, capped: false });
    expect(ctx.inspectionLedger.rangesOf('src/app.ts').map((r) => [r.startLine, r.endLine])).toEqual([[1, 5], [2, 3]]);
    expect(ctx.inspectionLedger.hasSeen('src/app.ts', 4)).toBe(true);
    expect(ctx.inspectionLedger.charsReadInTurn(1)).toBe(all.content.length + window.content.length);
    expect((await call('read', { path: 'empty.txt' })).content).toBe('empty.txt is empty.');
    const past = await call('read', { path: 'src/app.ts', offset: 9 });
    expect(past).toMatchObject({ isError: true, content: 'offset 9 is past the end of src/app.ts: it has 5 lines.' });
    expect((await call('read', { path: 'bin.dat' })).content).toContain('looks binary');
    const missing = await call('read', { path: 'nope.ts' });
    expect(missing).toMatchObject({ isError: true, data: { code: 'FILE_NOT_FOUND' } });
    expect((await call('read', { path: '../outside' })).data).toEqual({ code: 'PATH_OUTSIDE_WORKSPACE' });
  });

  it('read caps a result at maxSingleReadResultTokens × 4 characters and says where to continue', async () => {
    const { call, ctx, env } = setup(make, { maxSingleReadResultTokens: 10 }); // 40 characters
    await env.writeFile('long.txt', Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n'));
    const r = await call('read', { path: 'long.txt' });
    const [body, note] = r.content.split('\n[');
    expect(body!.length).toBeLessThanOrEqual(40);
    expect(body!.split('\n')).toEqual(['     1\tline 1', '     2\tline 2']);
    expect(note).toBe('Cut at the read cap of 40 characters: lines 1–2 of 20 shown. Continue with offset 3.]');
    expect(ctx.inspectionLedger.rangesOf('long.txt')[0]).toMatchObject({ startLine: 1, endLine: 2, capped: true });
    await env.writeFile('wide.txt', 'w'.repeat(500));
    const wide = await call('read', { path: 'wide.txt' });
    expect(wide.content).toContain('[line cut at 40 characters]');
    expect(wide.content.length).toBeLessThan(100);
  });

  it('edit replaces exactly one occurrence, or all with replace_all, and fails clearly otherwise', async () => {
    const { call, readBack } = setup(make);
    const ok = await call('edit', { path: 'src/app.ts', old_string: 'three', new_string: 'THREE $& $1' });
    expect(ok).toMatchObject({ isError: false, content: 'Edited src/app.ts: 1 replacement (at line 3).' });
    expect(await readBack('src/app.ts')).toBe('one\ntwo\nTHREE $& $1\nfour\nfive\n');
    const ambiguous = await call('edit', { path: 'dup.txt', old_string: 'x = 1', new_string: 'x = 9' });
    expect(ambiguous).toMatchObject({ isError: true });
    expect(ambiguous.content).toBe('old_string occurs 2 times in dup.txt (at lines 1, 3); include more surrounding text so it occurs once, or pass replace_all: true.');
    expect(await readBack('dup.txt')).toBe('x = 1\ny = 2\nx = 1\n');
    expect((await call('edit', { path: 'dup.txt', old_string: 'x = 1', new_string: 'x = 9', replace_all: true })).data).toMatchObject({ replacements: 2, lines: [1, 3] });
    expect(await readBack('dup.txt')).toBe('x = 9\ny = 2\nx = 9\n');
    const missing = await call('edit', { path: 'dup.txt', old_string: 'zzz', new_string: 'q' });
    expect(missing.content).toContain('old_string was not found in dup.txt');
    expect((await call('edit', { path: 'new.txt', old_string: 'a', new_string: 'b' })).content).toBe('new.txt does not exist; use write to create it.');
    expect((await call('edit', { path: 'dup.txt', old_string: '', new_string: 'b' })).isError).toBe(true);
    expect((await call('edit', { path: 'dup.txt', old_string: 'y', new_string: 'y' })).content).toContain('nothing would change');
  });

  it('write creates (with parents) and overwrites', async () => {
    const { call, readBack } = setup(make);
    expect((await call('write', { path: 'out/deep/n.txt', content: 'a\nb\n' })).content).toBe('Created out/deep/n.txt (4 bytes, 2 lines).');
    expect(await readBack('out/deep/n.txt')).toBe('a\nb\n');
    expect((await call('write', { path: 'out/deep/n.txt', content: 'é' })).content).toBe('Overwrote out/deep/n.txt (2 bytes, 1 line).');
    expect(await readBack('out/deep/n.txt')).toBe('é');
    expect((await call('write', { path: '/etc/hs-nope', content: 'x' })).data).toEqual({ code: 'PATH_OUTSIDE_WORKSPACE' });
  });

  it('bash returns exit code and streams; a failing command is a failed call', async () => {
    const { call } = setup(make);
    const ok = await call('bash', { command: 'echo hi' });
    expect(ok).toMatchObject({ isError: false, content: 'exit code 0\nstdout:\nhi\n', data: { exitCode: 0 } });
    const bad = await call('bash', { command: 'false' });
    expect(bad.isError).toBe(true);
    expect(bad.content).toMatch(/^exit code 1\n/);
    const missing = await call('bash', { command: 'no-such-cmd-hs' });
    expect(missing).toMatchObject({ isError: true, data: { exitCode: 127 } });
    expect(missing.content).toContain('command not found');
  });

  it('save_memory and search_memory go through the session memory', async () => {
    const { call, memory } = setup(make);
    expect((await call('save_memory', { content: 'Tests need TZ=UTC', tags: ['Testing'] })).content).toBe('Saved memory #1.');
    await memory.save('parent', 'Parent found the TZ rule first', []);
    await memory.inherit('parent', 'run-1');
    const found = await call('search_memory', { query: 'TZ (' });
    expect(found.isError).toBe(false);
    const lines = found.content.split('\n');
    expect(lines).toHaveLength(2);
    expect(found.content).toContain('tags: testing] Tests need TZ=UTC');
    expect(found.content).toContain('from session parent] Parent found the TZ rule first');
    expect((await call('search_memory', { query: 'nothing-like-this' })).content).toBe('No memory matches "nothing-like-this".');
    expect((await call('save_memory', { content: '   ' })).isError).toBe(true);
  });

  it('view_image describes PNG, GIF and JPEG headers and says the image is not sent', async () => {
    const { call } = setup(make);
    const png = await call('view_image', { path: 'img/pic.png' });
    expect(png).toMatchObject({ isError: false, data: { format: 'PNG', width: 640, height: 480, bytes: 33, sentToModel: false } });
    expect(png.content).toBe(`img/pic.png: PNG image, 640×480 pixels, 33 bytes. ${NOT_SENT_NOTE}`);
    expect((await call('view_image', { path: 'img/pic.gif' })).data).toMatchObject({ format: 'GIF', width: 16, height: 9 });
    expect((await call('view_image', { path: 'img/pic.jpg' })).data).toMatchObject({ format: 'JPEG', width: 1024, height: 768 });
    const notImage = await call('view_image', { path: 'src/app.ts' });
    expect(notImage).toMatchObject({ isError: true });
    expect(notImage.content).toContain('is not a PNG, JPEG or GIF image (first bytes: 6f 6e 65');
  });
});

describe('handlers without memory', () => {
  it('say that memory is not available', async () => {
    const executor = new ActionExecutor();
    const ctx: ActionContext = { env: new MemoryExecutionEnv(), inspectionLedger: new InspectionLedger(), turn: 1 };
    const r = await executor.execute({ id: 'c', name: 'search_memory', arguments: { query: 'x' } }, ctx);
    expect(r).toMatchObject({ isError: true });
    expect(r.content).toContain('Memory is not available');
  });
});

describe('handlerToolSpecs', () => {
  it('gives each default handler a name, a description and an object schema', () => {
    const specs = handlerToolSpecs();
    expect(specs.map((s) => s.name)).toEqual(['read', 'edit', 'write', 'bash', 'search_memory', 'save_memory', 'view_image']);
    for (const s of specs) {
      expect(s.description.length).toBeGreaterThan(20);
      expect(s.parameters).toMatchObject({ type: 'object', additionalProperties: false });
      expect(s.parameters).not.toHaveProperty('$schema');
    }
    expect(specs.find((s) => s.name === 'edit')!.parameters).toMatchObject({ required: ['path', 'old_string', 'new_string'] });
  });
});
