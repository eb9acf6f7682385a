// Every error code defined anywhere in src/ has a deliberate HTTP status, and the table names no
// code that nothing raises.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../../test/helpers.js';
import { HTTP_ERROR_CODES, statusForCode, TOOL_ERROR_STATUS } from './status-map.js';

function definedCodes(): Set<string> {
  const codes = new Set<string>();
  const files = readdirSync(join(REPO, 'src'), { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
  );
  for (const file of files) {
    const text = readFileSync(join(REPO, 'src', file), 'utf8');
    for (const m of text.matchAll(/defineError\(\s*['"]([A-Z0-9_]+)['"]/g)) codes.add(m[1]!);
  }
  return codes;
}

describe('status map', () => {
  it('gives every code defined with defineError a status of its own', () => {
    const codes = definedCodes();
    expect(codes.size).toBeGreaterThan(15);
    for (const code of codes) expect(Object.keys(TOOL_ERROR_STATUS), `${code} has no HTTP status in status-map.ts`).toContain(code);
  });

  it('names only codes something raises', () => {
    const codes = definedCodes();
    for (const code of Object.keys(TOOL_ERROR_STATUS)) {
      if (code !== 'INTERNAL') expect(codes, `${code} is mapped but never defined`).toContain(code);
    }
  });

  it('follows the documented rules', () => {
    for (const code of Object.keys(TOOL_ERROR_STATUS)) {
      const status = statusForCode(code);
      if (code.endsWith('_NOT_FOUND')) expect(status, code).toBe(404);
      if (code.startsWith('AMBIGUOUS_')) expect(status, code).toBe(409);
      if (code.startsWith('STORE_')) expect(status, code).toBe(503);
      expect(status, code).toBeGreaterThanOrEqual(400);
    }
    expect(statusForCode('INVALID_ARGUMENTS')).toBe(400);
    expect(statusForCode('INGEST_BUSY')).toBe(409);
    expect(statusForCode('INTERNAL')).toBe(500);
    expect(statusForCode('BODY_TOO_LARGE')).toBe(413);
    expect(statusForCode('SOMETHING_NEW')).toBe(500);
  });

  it('keeps HTTP-only codes apart from tool codes', () => {
    for (const code of Object.keys(HTTP_ERROR_CODES)) expect(TOOL_ERROR_STATUS[code], code).toBeUndefined();
  });

  it('is the table docs/http.md shows', () => {
    const doc = readFileSync(join(REPO, 'docs', 'http.md'), 'utf8');
    const rows = new Map<string, number>();
    for (const line of doc.split('\n')) {
      const m = /^\| (\d{3}) \| (.*) \|$/.exec(line);
      if (!m) continue;
      for (const c of m[2]!.matchAll(/`([A-Z0-9_]+)`/g)) rows.set(c[1]!, Number(m[1]));
    }
    const all = { ...TOOL_ERROR_STATUS, ...HTTP_ERROR_CODES };
    for (const [code, status] of Object.entries(all)) expect(rows.get(code), `${code} in docs/http.md`).toBe(status);
  });
});
