import { describe, expect, it } from 'vitest';
import { MemoryExecutionEnv } from './memory-env.js';

describe('MemoryExecutionEnv', () => {
  it('holds files and folders, creating parents on write', async () => {
    const env = new MemoryExecutionEnv({ files: { 'a/b.txt': 'hi' } });
    expect(env.fileExists('a')).toBe(true);
    expect(await env.readFile('a/b.txt')).toBe('hi');
    await env.writeFile('x/y/z.txt', 'deep');
    expect(await env.listDir('x')).toEqual([{ name: 'y', kind: 'folder' }]);
    expect(await env.stat('x/y/z.txt')).toEqual({ kind: 'file', size: 4 });
    await env.makeDir('empty/dir');
    expect(await env.listDir('.')).toEqual([
      { name: 'a', kind: 'folder' },
      { name: 'empty', kind: 'folder' },
      { name: 'x', kind: 'folder' },
    ]);
    await expect(env.readFile('x')).rejects.toThrow('is a folder, not a file');
    await expect(env.readFile('missing')).rejects.toThrow('No file at "missing"');
    await expect(env.writeFile('a/b.txt/c', 'no')).rejects.toThrow('is a file, not a folder');
  });

  it('refuses ".." out of the root and absolute paths elsewhere, as the Node env does', async () => {
    const env = new MemoryExecutionEnv();
    await expect(env.readFile('../etc/passwd')).rejects.toMatchObject({ code: 'PATH_OUTSIDE_WORKSPACE' });
    await expect(env.writeFile('/etc/passwd', 'x')).rejects.toThrow('absolute path outside the workspace root /workspace');
    await env.writeFile('/workspace/in.txt', 'ok');
    expect(await env.readFile('in.txt')).toBe('ok');
  });

  it('answers commands from its script and says "command not found" (127) otherwise', async () => {
    const env = new MemoryExecutionEnv({
      commands: { 'git status': { stdout: 'clean\n' } },
      patterns: [[/^cat /, (cmd) => ({ stdout: `read ${cmd.slice(4)}\n` })]],
    });
    expect(await env.execCommand('git status')).toEqual({ exitCode: 0, stdout: 'clean\n', stderr: '', timedOut: false, aborted: false, truncated: false });
    expect((await env.execCommand('cat x.txt')).stdout).toBe('read x.txt\n');
    expect(await env.execCommand('cargo build')).toMatchObject({ exitCode: 127, stderr: 'bash: cargo: command not found\n' });
    expect(env.ran.map((r) => r.cmd)).toEqual(['git status', 'cat x.txt', 'cargo build']);
  });
});
