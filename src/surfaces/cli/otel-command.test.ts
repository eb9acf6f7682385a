// `hindsight export ID --format otlp` and `hindsight otel push` through the built CLI (npm run build).

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, FIXTURES, runCli, tempDir } from '../../../test/helpers.js';
import { startReceiver, type Receiver } from '../../otel/test-otlp-receiver.js';

let db: string;
let receiver: Receiver;

/** The CLI run without blocking this process (the receiver answers meanwhile). */
function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, TZ: 'UTC', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  db = join(tempDir('hs-otel-cli-'), 'store.db');
  expect(runCli(['ingest', join(FIXTURES, 'claude-code'), '--db', db]).status).toBe(0);
  receiver = await startReceiver();
}, 120_000);
afterAll(() => receiver.close());

describe('the otel commands', () => {
  it('exports a session as one OTLP/JSON line with --format otlp (no notice) and --as otlp', () => {
    const sessions = JSON.parse(runCli(['sessions', '--json', '--db', db]).stdout) as { sessions: { session_id: string; tokens: { total: number } }[] };
    const id = sessions.sessions.find((s) => s.tokens.total > 0 && !s.session_id.includes(":"))!.session_id;
    const byFormat = runCli(['export', id, '--format', 'otlp', '--db', db]);
    expect(byFormat.status).toBe(0);
    expect(byFormat.stderr).toBe('');
    const lines = byFormat.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const doc = JSON.parse(lines[0]!) as { resourceSpans: { scopeSpans: { spans: { name: string; attributes: { key: string }[] }[] }[] }[] };
    const spans = doc.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    expect(spans[0]!.name).toBe('invoke_agent Claude Code');
    expect(spans.some((s) => s.name.startsWith('chat '))).toBe(true);
    expect(runCli(['export', id, '--as', 'otlp', '--db', db]).stdout).toBe(byFormat.stdout);
    expect(byFormat.stdout).not.toContain('gen_ai.input.messages');
    expect(runCli(['export', id, '--format', 'otlp', '--include-content', '--db', db]).stdout).toContain('gen_ai.input.messages');
    // The old spelling still says it is old.
    expect(runCli(['export', id, '--format', 'replay', '--db', db]).stderr).toContain('deprecated');
  });

  it('pushes every session once, then nothing', async () => {
    const env = { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_HEADERS: 'x-from=cli' };
    const first = await run(['otel', 'push', '--json', '--db', db], env);
    expect(first.code, first.stderr).toBe(0);
    const summary = JSON.parse(first.stdout) as { sent: number; spans: number; endpoint: string };
    expect(summary.sent).toBeGreaterThan(0);
    expect(summary.endpoint).toBe(receiver.url);
    expect(receiver.requests.flatMap((r) => r.spans)).toHaveLength(summary.spans);
    expect(receiver.requests[0]!.headers['x-from']).toBe('cli');
    const second = await run(['otel', 'push', '--db', db], env);
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/^Sent 0 of \d+ sessions/);
    expect((await run(['otel', 'pull', '--db', db], env)).code).toBe(2);
  });
});
