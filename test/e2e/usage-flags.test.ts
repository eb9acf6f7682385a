// ccusage's report flags on `hindsight usage`, end to end through the built CLI on the Claude Code
// fixtures: --timezone moves calls across midnight, --order reverses, --breakdown prints a row per
// model in the table, and bad values are usage errors (exit 2). usage_report takes them too.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../helpers.js';

const db = join(tempDir('hs-usage-flags-'), 'h.db');

beforeAll(() => {
  expect(runCli(['ingest', join(FIXTURES, 'claude-code'), '--db', db]).status).toBe(0);
});

const dailyKeys = (...flags: string[]) => {
  const r = runCli(['usage', 'daily', '--json', '--db', db, ...flags]);
  expect(r.status, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { rows: { key: string; tokens: { total: number } }[] }).rows.map((x) => [x.key, x.tokens.total]);
};

describe('hindsight usage --timezone / --order / --breakdown', () => {
  it('--timezone buckets each call by its day in that zone (UTC by default)', () => {
    const utc = dailyKeys();
    expect(utc).toEqual(dailyKeys('--timezone', 'UTC'));
    expect(utc).toContainEqual(['2026-02-10', 697_508]);
    // 2026-02-10 late evening UTC is already 2026-02-11 in Tokyo (UTC+9).
    const tokyo = dailyKeys('--timezone', 'Asia/Tokyo');
    expect(tokyo).toContainEqual(['2026-02-11', 697_508]);
    expect(tokyo.map(([k]) => k)).not.toContain('2026-02-10');
    // Same calls, same total, whatever the zone.
    const sum = (rows: (string | number)[][]) => rows.reduce((a, [, t]) => a + (t as number), 0);
    expect(sum(tokyo)).toBe(sum(utc));
    const table = runCli(['usage', 'daily', '-z', 'Asia/Tokyo', '--db', db, '--no-color']);
    expect(table.stdout).toMatch(/^2026-02-11 /m);
    expect(table.stdout).toContain('days in Asia/Tokyo');
  });

  it('--order desc reverses the periods; asc is the default', () => {
    const asc = dailyKeys();
    expect(dailyKeys('--order', 'asc')).toEqual(asc);
    expect(dailyKeys('--order', 'desc')).toEqual([...asc].reverse());
    const monthly = (order: string) =>
      (JSON.parse(runCli(['usage', 'monthly', '--json', '--order', order, '--db', db]).stdout).rows as { key: string }[]).map((r) => r.key);
    expect(monthly('desc')).toEqual(['2026-02', '2025-09']);
  });

  it('--breakdown prints a row per model under each period in the table', () => {
    const plain = runCli(['usage', 'daily', '--db', db, '--no-color']).stdout;
    expect(plain).not.toContain('└');
    const r = runCli(['usage', 'daily', '--breakdown', '--db', db, '--no-color']);
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    const day = lines.findIndex((l) => l.startsWith('2026-02-10 '));
    expect(day).toBeGreaterThanOrEqual(0);
    // The day's models follow it, each with its own calls and tokens.
    expect(lines[day + 1]).toMatch(/^ {2}└ claude-haiku-4-5-20251001 +5 +24 +7 /);
    expect(lines[day + 2]).toMatch(/^ {2}└ claude-opus-4-6 +17 /);
    expect(lines[day + 3]).toMatch(/^2026-02-11 /);
  });

  it('refuses an unknown zone or order with a usage error that names it', () => {
    const zone = runCli(['usage', 'daily', '--timezone', 'Mars/Olympus', '--db', db]);
    expect(zone.status).toBe(2);
    expect(zone.stderr).toContain('unknown time zone "Mars/Olympus"');
    const order = runCli(['usage', '--order', 'newest', '--db', db]);
    expect(order.status).toBe(2);
    expect(order.stderr).toContain('--order takes asc or desc; got "newest"');
    const tool = runCli(['tool', 'usage_report', JSON.stringify({ timezone: 'Mars/Olympus' }), '--db', db]);
    expect(tool.status).toBe(1);
    expect(JSON.parse(tool.stdout).error).toContain('unknown time zone "Mars/Olympus"');
  });

  it('usage_report takes timezone and order and echoes the zone', () => {
    const r = runCli(['tool', 'usage_report', JSON.stringify({ timezone: 'Asia/Tokyo', order: 'desc' }), '--db', db]);
    expect(r.status, r.stdout).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.timezone).toBe('Asia/Tokyo');
    expect(body.rows.map((x: { key: string }) => x.key)).toEqual(['2026-02-12', '2026-02-11', '2025-09-07', '2025-09-03']);
  });
});
