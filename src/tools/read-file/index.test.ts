import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { runTool } from '../tool.js';
import { readFile } from './index.js';

let root: string;
let store: SqliteStore;
const call = (args: unknown) => runTool(readFile, args, { store, workspaceRoot: root }) as Promise<Record<string, any>>;

beforeAll(() => {
  root = tempDir('hs-ws-');
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  writeFileSync(join(root, 'ten.txt'), Array.from({ length: 10 }, (_, i) => `line ${i + 1} é`).join('\n') + '\n');
  writeFileSync(join(root, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
  writeFileSync(join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  mkdirSync(join(root, 'dir'));
  const outside = tempDir('hs-outside-');
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
});

describe('read_file', () => {
  it('returns a line range with the total count and the next line', async () => {
    const r = await call({ path: 'ten.txt', from_line: 3, limit: 4 });
    expect(r.status).toBe('ok');
    expect(r.lines).toEqual([3, 4, 5, 6].map((n) => ({ line_number: n, text: `line ${n} é` })));
    expect(r).toMatchObject({ count: 10, returned: 4, has_more: true, next_from_line: 7 });
  });

  it('cuts at max_bytes and says so', async () => {
    const r = await call({ path: 'ten.txt', max_bytes: 300 });
    expect(r.truncated).toBe(true);
    expect(r.returned).toBeLessThan(10);
    expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThanOrEqual(300);
  });

  it('answers within max_bytes for a single huge line', async () => {
    writeFileSync(join(root, 'huge.txt'), `${'x'.repeat(20 * 1024 * 1024)}\nafter\n`);
    const r = await call({ path: 'huge.txt', max_bytes: 10_000 });
    expect(r.status).toBe('ok');
    expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThanOrEqual(10_000);
    expect(r.count).toBe(2);
    expect(r.truncated).toBe(true); // the cut line itself does not fit with the envelope
    const second = await call({ path: 'huge.txt', from_line: 2 });
    expect(second.lines).toEqual([{ line_number: 2, text: 'after' }]);
  });

  it('refuses binary and non-UTF-8 files with a clear error', async () => {
    expect(await call({ path: 'image.png' })).toMatchObject({ status: 'error', code: 'BINARY_FILE' });
    expect((await call({ path: 'latin1.txt' })).error).toMatch(/not UTF-8 text/);
  });

  it('refuses paths outside the root, folders, and missing files', async () => {
    expect(await call({ path: '../etc/passwd' })).toMatchObject({ code: 'PATH_ESCAPES_ROOT' });
    expect(await call({ path: '/etc/passwd' })).toMatchObject({ code: 'PATH_ESCAPES_ROOT' });
    expect(await call({ path: 'link.txt' })).toMatchObject({ code: 'PATH_ESCAPES_ROOT' });
    expect(await call({ path: 'dir' })).toMatchObject({ code: 'WRONG_KIND' });
    expect(await call({ path: 'missing.txt' })).toMatchObject({ code: 'FILE_NOT_FOUND' });
  });

  it('says what a FIFO or a socket is instead of calling it a folder (and does not block on the pipe)', async () => {
    execFileSync('mkfifo', [join(root, 'pipe')]);
    const fifo = await call({ path: 'pipe' });
    expect(fifo).toMatchObject({ status: 'error', code: 'WRONG_KIND' });
    expect(fifo.error).toBe('"pipe" is a FIFO (named pipe), not a file; only regular files can be read.');
    const server = createServer();
    await new Promise<void>((done) => server.listen(join(root, 'sock'), done));
    try {
      expect((await call({ path: 'sock' })).error).toBe('"sock" is a socket, not a file; only regular files can be read.');
    } finally {
      server.close();
    }
    expect((await call({ path: 'dir' })).error).toBe('"dir" is a folder, not a file; use list_files to look inside it.');
  });
});
