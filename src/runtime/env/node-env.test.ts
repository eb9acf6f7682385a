import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { HindsightError } from '../../core/errors.js';
import { NodeExecutionEnv } from './node-env.js';

/** A workspace root inside a temp folder, with a sibling folder outside it. */
function workspace() {
  const base = realpathSync(tempDir('hs-env-'));
  const root = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  writeFileSync(join(root, 'a.txt'), 'alpha\n');
  // bash -l reads the login profile from $HOME: an empty home keeps this machine's profile (and
  // whatever it prints or waits for) out of the results.
  const home = join(base, 'home');
  mkdirSync(home);
  return { base, root, outside, env: new NodeExecutionEnv(root, { env: { ...process.env, HOME: home } }) };
}

/** Whether a process runs (exists and is not a zombie). */
function isAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** A killed process closes its pipes a moment before the kernel marks it a zombie: wait for that. */
async function expectDead(pid: number): Promise<void> {
  await vi.waitFor(() => expect(isAlive(pid)).toBe(false), { timeout: 10_000, interval: 20 });
}

async function refusal(run: () => unknown): Promise<HindsightError> {
  try {
    await run();
  } catch (err) {
    if (err instanceof HindsightError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('NodeExecutionEnv confinement', () => {
  it('reads, writes (creating parents), makes folders and lists inside the root', async () => {
    const { root, env } = workspace();
    expect(await env.readFile('a.txt')).toBe('alpha\n');
    await env.writeFile('deep/er/b.txt', 'beta');
    expect(readFileSync(join(root, 'deep/er/b.txt'), 'utf8')).toBe('beta');
    await env.makeDir('made/here');
    expect(env.fileExists('made/here')).toBe(true);
    expect(await env.stat('deep/er/b.txt')).toEqual({ kind: 'file', size: 4 });
    expect(await env.stat('nope')).toBeNull();
    expect(await env.listDir('.')).toEqual([
      { name: 'a.txt', kind: 'file' },
      { name: 'deep', kind: 'folder' },
      { name: 'made', kind: 'folder' },
    ]);
  });

  it('refuses ".." that leads out, naming the path and the reason', async () => {
    const { env } = workspace();
    const err = await refusal(() => env.readFile('../outside/secret.txt'));
    expect(err.code).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(err.message).toContain('"../outside/secret.txt"');
    expect(err.message).toContain('".."');
    expect((await refusal(() => env.writeFile('sub/../../escape.txt', 'x'))).code).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(() => env.fileExists('..')).toThrow(/outside|out of/);
  });

  it('allows ".." that stays inside', async () => {
    const { env } = workspace();
    expect(await env.readFile('sub/../a.txt')).toBe('alpha\n');
  });

  it('refuses absolute paths outside the root and accepts absolute paths inside it', async () => {
    const { root, outside, env } = workspace();
    const err = await refusal(() => env.readFile(join(outside, 'secret.txt')));
    expect(err.code).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(err.message).toContain('absolute path outside the workspace root');
    expect((await refusal(() => env.writeFile('/etc/hs-should-not-exist', 'x'))).code).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(await env.readFile(join(root, 'a.txt'))).toBe('alpha\n');
  });

  it('refuses symlinks pointing out, for reading and for writing through them', async () => {
    const { root, outside, env } = workspace();
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link-out.txt'));
    symlinkSync(outside, join(root, 'dir-out'));
    symlinkSync(join(outside, 'not-yet.txt'), join(root, 'dangling-out.txt'));
    const err = await refusal(() => env.readFile('link-out.txt'));
    expect(err.code).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(err.message).toContain('symlink that points outside');
    expect((await refusal(() => env.writeFile('dir-out/new.txt', 'x'))).code).toBe('PATH_OUTSIDE_WORKSPACE');
    // A dangling link would create its target on write: it is followed and refused too.
    expect((await refusal(() => env.writeFile('dangling-out.txt', 'x'))).code).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(existsSync(join(outside, 'not-yet.txt'))).toBe(false);
    expect((await refusal(() => env.execCommand('pwd', { cwd: 'dir-out' }))).code).toBe('PATH_OUTSIDE_WORKSPACE');
  });

  it('follows symlinks that stay inside the root', async () => {
    const { root, env } = workspace();
    mkdirSync(join(root, 'real'));
    symlinkSync(join(root, 'a.txt'), join(root, 'link-in.txt'));
    symlinkSync('real', join(root, 'dir-in'));
    expect(await env.readFile('link-in.txt')).toBe('alpha\n');
    await env.writeFile('dir-in/c.txt', 'gamma');
    expect(readFileSync(join(root, 'real', 'c.txt'), 'utf8')).toBe('gamma');
  });

  it('says what is missing or of the wrong kind', async () => {
    const { env } = workspace();
    await env.makeDir('folder');
    expect((await refusal(() => env.readFile('missing.txt'))).code).toBe('FILE_NOT_FOUND');
    expect((await refusal(() => env.readFile('folder'))).message).toContain('is a folder, not a file');
    expect((await refusal(() => env.listDir('a.txt'))).message).toContain('is a file, not a folder');
  });

  it('refuses a root that does not exist', () => {
    expect(() => new NodeExecutionEnv(join(tempDir(), 'missing'))).toThrow(/does not exist/);
  });
});

describe('NodeExecutionEnv.execCommand', () => {
  it('runs in the root (or a cwd inside it) and reports exit codes and both streams', async () => {
    const { root, env } = workspace();
    const ok = await env.execCommand('pwd; echo err >&2');
    expect(ok).toMatchObject({ exitCode: 0, stdout: `${root}\n`, stderr: 'err\n', timedOut: false, aborted: false, truncated: false });
    await env.makeDir('sub');
    expect((await env.execCommand('pwd', { cwd: 'sub' })).stdout).toBe(`${join(root, 'sub')}\n`);
    expect((await env.execCommand('exit 3')).exitCode).toBe(3);
    expect((await env.execCommand('definitely-not-a-command-hs')).exitCode).toBe(127);
    const missingCwd = await env.execCommand('pwd', { cwd: 'nowhere' });
    expect(missingCwd.exitCode).toBe(1);
    expect(missingCwd.stderr).toContain('does not exist');
  });

  it('kills the whole process group on timeout and says so', async () => {
    const { root, env } = workspace();
    const r = await env.execCommand('sleep 30 & echo $! > bg.pid; echo started; wait; echo never', { timeoutMs: 3000 });
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBe(128 + 9);
    expect(r.stdout).toBe('started\n');
    expect(r.stderr).toContain('[killed after 3000 ms: timed out]');
    // The background child died with its group (a zombie left for init to reap counts as dead).
    const pid = Number(readFileSync(join(root, 'bg.pid'), 'utf8'));
    await expectDead(pid);
  });

  it('caps each stream and marks the result truncated', async () => {
    const { env } = workspace();
    const r = await env.execCommand('head -c 200000 /dev/zero | tr "\\0" x; echo tail >&2', { maxOutputBytes: 1000 });
    expect(r.exitCode).toBe(0);
    expect(r.truncated).toBe(true);
    expect(r.stdout).toBe('x'.repeat(1000));
    expect(r.stderr).toBe('tail\n');
  });

  it('stops on abort, and does not start when already aborted', async () => {
    const { env } = workspace();
    const controller = new AbortController();
    const running = env.execCommand('echo go; sleep 30', { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    const r = await running;
    expect(r.aborted).toBe(true);
    expect(r.timedOut).toBe(false);
    expect(r.stderr).toContain('aborted');
    const before = await env.execCommand('touch should-not-exist', { signal: AbortSignal.abort() });
    expect(before.aborted).toBe(true);
    expect(env.fileExists('should-not-exist')).toBe(false);
  });

  it('returns once bash exits even when a background child keeps the pipes open', async () => {
    const { env } = workspace();
    const r = await env.execCommand('sleep 30 & echo $!; echo done', { timeoutMs: 60_000 });
    expect(r).toMatchObject({ exitCode: 0, timedOut: false });
    const [pid, done] = r.stdout.split('\n');
    expect(done).toBe('done');
    // It is not left running either: the group goes when bash is done.
    await expectDead(Number(pid));
  });
});
