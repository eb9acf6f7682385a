// The agent commands through the built CLI (bin/hindsight), against a fake OpenAI-compatible
// server on loopback: ask --json, ask piped (plain lines), doctor, skills, and run confined to its
// workspace. The fake answers in-process, so the CLI runs as an async child (spawnSync would block
// the server it talks to).

import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../fake-providers/index.js';
import { BIN, copyFixture, tempDir } from '../helpers.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function hindsight(args: string[], env: NodeJS.ProcessEnv, cwd?: string, stdin?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, TZ: 'UTC', ...env }, cwd, stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (stdin !== undefined) child.stdin!.end(stdin);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

function homeEnv(): NodeJS.ProcessEnv & { home: string } {
  const home = tempDir('hs-agent-cli-');
  return { home, HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data') };
}

describe('hindsight ask / doctor / skills / run', () => {
  it('ask --json: the answer, the session id, the tokens; the session is in the store right after', async () => {
    const plane = copyFixture('control-plane/normal');
    const env = homeEnv();
    const db = join(env.home, 'h.db');
    expect((await hindsight(['ingest', plane, '--db', db], env)).code).toBe(0);
    const fake = await startFakeOpenAI([
      { toolCalls: [{ name: 'query_ledger', arguments: { ledger: 'ho2m', event_type: 'TURN_RECORDED' } }] },
      { content: 'The ho2m ledger records the turns.', usage: { inputTokens: 500, outputTokens: 12, cacheReadTokens: 0, cacheCreationTokens: 0, reasoningTokens: 0 } },
    ]);
    const r = await hindsight(['ask', 'show me turn events from the session ledger', '--provider', 'custom', '--base-url', fake.url, '--model', 'm1', '--db', db, '--json'], env, plane);
    await fake.close();
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as Record<string, any>;
    expect(result).toMatchObject({ status: 'ok', terminal_state: 'completed', content: 'The ho2m ledger records the turns.', steps: 2, tool_calls: 1 });
    expect(result.usage.output_tokens).toBeGreaterThanOrEqual(12);
    const listed = await hindsight(['tool', 'list_sessions', JSON.stringify({ format: 'hindsight' }), '--db', db], env);
    expect(JSON.parse(listed.stdout).sessions.map((s: { session_id: string }) => s.session_id)).toContain(result.session_id);
  });

  it('ask piped: the answer as plain text on stdout, nothing else', async () => {
    const env = homeEnv();
    const fake = await startFakeOpenAI([{ content: 'Hello there.' }]);
    const r = await hindsight(['ask', 'hello', '--provider', 'custom', '--base-url', fake.url, '--model', 'm1', '--db', join(env.home, 'h.db')], env);
    await fake.close();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('Hello there.\n');
  });

  it('chat with piped lines: one turn per line, in order, in one recorded session', async () => {
    const env = homeEnv();
    const fake = await startFakeOpenAI([{ content: 'First answer.' }, { content: 'Second answer.' }]);
    const r = await hindsight(['chat', '--provider', 'custom', '--base-url', fake.url, '--model', 'm1', '--db', join(env.home, 'h.db')], env, undefined, 'first question\nsecond question\n/exit\n');
    await fake.close();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('First answer.\nSecond answer.\n');
    const second = fake.modelRequests[1]!.body as { messages: { role: string; content: string }[] };
    expect(second.messages.map((m) => m.content)).toEqual(expect.arrayContaining(['first question', 'First answer.', 'second question']));
  });

  it('ask with a hosted provider and no key: a clear error naming the variable, exit 2, no stack trace; so is a session to resume that does not exist', async () => {
    const env = homeEnv();
    const r = await hindsight(['ask', 'hello', '--provider', 'anthropic'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ANTHROPIC_API_KEY');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const resume = await hindsight(['chat', '--resume', 'no-such-session', '--provider', 'ollama', '--model', 'llama3'], env);
    expect(resume.code).toBe(2);
    expect(resume.stderr).toMatch(/^hindsight: no recorded runtime session starts with "no-such-session"/);
  });

  it('doctor: config, key presence (never the key), the model listed, the store, recording', async () => {
    const env = homeEnv();
    const fake = await startFakeOpenAI([], { models: ['m1', 'm2'] });
    mkdirSync(join(env.home, 'config', 'hindsight'), { recursive: true });
    writeFileSync(join(env.home, 'config', 'hindsight', 'config.json'), JSON.stringify({ provider: 'custom', baseUrl: fake.url, model: 'm1', apiKeyEnv: 'MY_SERVER_KEY' }));
    const db = join(env.home, 'h.db');
    await hindsight(['ingest', copyFixture('control-plane/normal'), '--db', db], env);
    const r = await hindsight(['doctor', '--db', db, '--json'], { ...env, MY_SERVER_KEY: 'secret-value-123' });
    await fake.close();
    expect(r.stdout).not.toContain('secret-value-123');
    const report = JSON.parse(r.stdout) as { ok: boolean; checks: { name: string; ok: boolean; detail: string }[] };
    expect(report.checks.map((c) => c.name)).toEqual(['config', 'provider', 'api key', 'model', 'store', 'recording']);
    expect(report.checks.find((c) => c.name === 'api key')!.detail).toContain('MY_SERVER_KEY');
    expect(report.checks.find((c) => c.name === 'model')!.detail).toContain('lists m1');
    expect(report.ok, JSON.stringify(report)).toBe(true);
    expect(r.code).toBe(0);
  });

  it('doctor: a provider that does not answer is a failed check, exit 1', async () => {
    const env = homeEnv();
    const r = await hindsight(['doctor', '--provider', 'custom', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm'], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ model: the provider did not answer/);
  });

  it('skills: user and workspace skills, the workspace one winning a name clash', async () => {
    const env = homeEnv();
    const ws = tempDir('hs-skills-ws-');
    mkdirSync(join(env.home, 'config', 'hindsight', 'skills'), { recursive: true });
    mkdirSync(join(ws, '.hindsight', 'skills'), { recursive: true });
    writeFileSync(join(env.home, 'config', 'hindsight', 'skills', 'ledgers.md'), '# Reading ledgers\nUse query_ledger.');
    writeFileSync(join(env.home, 'config', 'hindsight', 'skills', 'style.md'), '# User style\nBe brief.');
    writeFileSync(join(ws, '.hindsight', 'skills', 'style.md'), '# Project style\nCite file:line.');
    const r = await hindsight(['skills', '--json', '--workspace', ws], env);
    expect(r.code, r.stderr).toBe(0);
    const skills = (JSON.parse(r.stdout) as { skills: { name: string; source: string; summary: string }[] }).skills;
    expect(skills.map((s) => [s.name, s.source, s.summary])).toEqual([
      ['ledgers', 'user', 'Reading ledgers'],
      ['style', 'workspace', 'Project style'],
    ]);
  });

  it('run: writes inside the workspace only with --allow write', async () => {
    const env = homeEnv();
    const ws = tempDir('hs-run-cli-');
    const fake = await startFakeOpenAI([{ toolCalls: [{ name: 'write', arguments: { path: 'out/hello.txt', content: 'hi\n' } }] }, { content: 'Written.' }]);
    const r = await hindsight(['run', 'write a greeting', '--workspace', ws, '--allow', 'write', '--provider', 'custom', '--base-url', fake.url, '--model', 'm1', '--db', join(env.home, 'h.db'), '--json'], env);
    await fake.close();
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ terminal_state: 'completed', content: 'Written.' });
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(join(ws, 'out', 'hello.txt'), 'utf8')).toBe('hi\n');
  });
});
