import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { findTool } from '../registry.js';
import { runTool } from '../tool.js';
import { listFiles } from './index.js';

let root: string;
let store: SqliteStore;
const call = (args: unknown) => runTool(listFiles, args, { store, workspaceRoot: root }) as Promise<Record<string, any>>;

beforeAll(() => {
  root = tempDir('hs-ws-');
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  mkdirSync(join(root, 'HOT', 'kernel', 'deep', 'deeper', 'deepest', 'six'), { recursive: true });
  writeFileSync(join(root, 'README.md'), '# hi\n');
  writeFileSync(join(root, 'HOT', 'kernel', 'ledger.py'), 'x = 1\n');
  writeFileSync(join(root, 'HOT', 'kernel', 'notes.json'), '{}\n');
  writeFileSync(join(root, 'HOT', 'kernel', 'deep', 'deeper', 'deepest', 'six', 'far.py'), '\n');
  for (const hidden of ['.git', 'node_modules', '__pycache__']) {
    mkdirSync(join(root, hidden));
    writeFileSync(join(root, hidden, 'inside.py'), '\n');
  }
  const outside = tempDir('hs-outside-');
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  symlinkSync(outside, join(root, 'escape'));
});

describe('list_files', () => {
  it('test_list_files_returns_directory_contents: the folder contents with types and sizes, sorted', async () => {
    const r = await call({ max_depth: 1 });
    expect(r.status).toBe('ok');
    expect(r.files).toEqual([
      { path: 'HOT/', type: 'dir' },
      { path: 'README.md', type: 'file', size: 5 },
      { path: 'escape', type: 'symlink' },
    ]);
    expect(r.count).toBe(3);
  });

  it('test_list_files_respects_max_depth: max_depth=1 lists no nested contents, and the depth is capped at 5', async () => {
    const shallow = await call({ path: 'HOT', max_depth: 1 });
    expect(shallow.files.map((f: { path: string }) => f.path)).toEqual(['HOT/kernel/']);
    const capped = await call({ max_depth: 50 });
    expect(capped.max_depth).toBe(5);
    expect(capped.files.map((f: { path: string }) => f.path)).toContain('HOT/kernel/deep/deeper/deepest/');
    expect(capped.files.map((f: { path: string }) => f.path)).not.toContain('HOT/kernel/deep/deeper/deepest/six/far.py');
  });

  it('test_list_files_glob_filter: glob=*.py gives only .py files; hidden folders, node_modules and __pycache__ are skipped', async () => {
    const r = await call({ glob: '*.py', max_depth: 5 });
    const paths = r.files.map((f: { path: string }) => f.path);
    expect(paths).toContain('HOT/kernel/ledger.py');
    expect(paths).not.toContain('HOT/kernel/notes.json');
    expect(paths.some((p: string) => p.includes('.git') || p.includes('node_modules') || p.includes('__pycache__'))).toBe(false);
  });

  it('test_list_files_escapes_root_blocked: .., absolute paths and symlinks pointing out are refused', async () => {
    for (const path of ['../../', '/etc', 'escape']) {
      const r = await call({ path });
      expect(r).toMatchObject({ status: 'error', code: 'PATH_ESCAPES_ROOT' });
    }
  });

  it('test_list_files_nonexistent_dir: a missing folder (or a file) is an error; bad depths and globs are refused', async () => {
    expect(await call({ path: 'nope' })).toMatchObject({ status: 'error', code: 'FILE_NOT_FOUND' });
    expect(await call({ path: 'README.md' })).toMatchObject({ status: 'error', code: 'WRONG_KIND' });
    expect((await call({ max_depth: 0 })).error).toMatch(/max_depth must be from 1 to 5/);
    expect(await call({ glob: '[z-a]' })).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
    expect((await call({ glob: '*'.repeat(201) })).error).toMatch(/glob must be at most 200 characters/);
  });

  it('test_list_files_in_admin_config: list_files is in the tool registry (what the admin config was)', () => {
    expect(findTool('list_files')).toBe(listFiles);
  });

  it('lists the first 500 entries with truncated: true; count is every entry found (the seed: len(files) before the cut)', async () => {
    const big = join(root, 'big');
    mkdirSync(big);
    for (let i = 0; i < 600; i++) writeFileSync(join(big, `f${String(i).padStart(3, '0')}.txt`), '');
    const r = await call({ path: 'big' });
    expect(r.count).toBe(600);
    expect(r.returned).toBe(500);
    expect(r.files).toHaveLength(500);
    expect(r.files.at(-1).path).toBe('big/f499.txt');
    expect(r.truncated).toBe(true);
  });
});
