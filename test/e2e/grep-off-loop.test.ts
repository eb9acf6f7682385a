// A slow search must not hold up the server (issue 12, item 5): `hindsight serve` built and run as a
// real process; while a grep that takes seconds runs, another client's list_sessions is answered,
// and the grep itself comes back ok (with what it found, or cut at its deadline).

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, tempDir } from '../helpers.js';
import { writePlaneRoot } from '../plane-root.js';

type Json = Record<string, any>;

let url: string;
let stop: () => Promise<void>;

/** Lines full of 64-character hex runs: `[0-9a-f]{64}x` backtracks at every one of them. */
const hex = (i: number) => Array.from({ length: 40 }, (_, j) => ((i * 7919 + j) >>> 0).toString(16).padStart(8, '0').repeat(8)).join(' ');

beforeAll(async () => {
  const root = writePlaneRoot(
    tempDir('hs-e2e-slow-'),
    Array.from({ length: 1200 }, (_, i) => ({ ledger: 'governance' as const, event_type: 'NOTE', decision: 'NOTE', reason: hex(i), at: i })),
  );
  const db = join(tempDir('hs-e2e-slow-db-'), 'h.db');
  const ingest = runCli(['ingest', root, '--db', db]);
  expect(ingest.status, ingest.stderr).toBe(0);
  const child = spawn(process.execPath, [BIN, 'serve', '--db', db, '--port', '0'], { env: { ...process.env, TZ: 'UTC', HINDSIGHT_TOKEN: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /Hindsight is serving .* at (http:\/\/\S+?)\/\n/.exec(stderr);
      if (m) resolve(m[1]!);
    });
    void exited.then(() => reject(new Error(`serve exited: ${stderr}`)));
  });
  stop = async () => {
    child.kill('SIGTERM');
    await exited;
  };
});
afterAll(async () => stop?.());

const post = (name: string, args: unknown) =>
  fetch(`${url}/api/tools/${name}`, { method: 'POST', body: JSON.stringify(args), headers: { 'content-type': 'application/json' } }).then((r) => r.json() as Promise<Json>);

describe('a slow grep on hindsight serve', () => {
  it('leaves the server answering other clients, and ends ok at its deadline', async () => {
    // A lone surrogate keeps this pattern off RE2: it runs on V8, whose linear fallback takes
    // seconds per megabyte of hex here (the ledger is ~3 MB).
    let grepDone = false;
    const grep = post('grep_jsonl', { ledger: 'governance', pattern: '\\uD800|[0-9a-f]{64}x', timeout_ms: 8000 }).then((r) => {
      grepDone = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 500)); // let the grep start on the server
    const listed = await post('list_sessions', { limit: 5 });
    expect(listed.status).toBe('ok');
    expect(grepDone).toBe(false); // answered while the grep was still running
    const r = await grep;
    expect(r).toMatchObject({ status: 'ok', engine: 'js', count: 0, entries: [] });
    // The same pattern without the surrogate runs on RE2 and finishes: no line has a 64-hex run then x.
    const fast = await post('grep_jsonl', { ledger: 'governance', pattern: '[0-9a-f]{64}x' });
    expect(fast).toMatchObject({ status: 'ok', engine: 're2', count: 0 });
    expect(fast.truncated).toBeUndefined();
  });
});
