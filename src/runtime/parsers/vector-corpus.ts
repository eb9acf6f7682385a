// The recorded vectors of ../shared/fixtures/tool-calls (README there): loading them, and the
// comparison rules of that README. Used by the vector test and the bench.

import { readdirSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import type { ParseResult, ToolSchema } from './types.js';

export interface ToolCallVector {
  parser: string;
  mode: 'nonstream' | 'stream';
  source: string;
  input?: string;
  deltas?: string[];
  tools?: ToolSchema[];
  expected: { calls: { name: string; arguments: unknown }[]; content: string | null };
}

/** Where the vectors live: ../shared/fixtures/tool-calls relative to the repository. */
export const VECTOR_DIR = join(import.meta.dirname, '../../../../shared/fixtures/tool-calls');

export function loadVectors(dir = VECTOR_DIR): ToolCallVector[] {
  const out: ToolCallVector[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const data = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { parser: string; vectors: ToolCallVector[] };
    out.push(...data.vectors);
  }
  return out;
}

/** The whole output a vector stands for. */
export function vectorText(v: ToolCallVector): string {
  return v.input ?? (v.deltas ?? []).join('');
}

const THINK = /<think>[\s\S]*?<\/think>/g;

function normContent(text: string | null): string {
  return (text ?? '').replace(THINK, '').trim();
}

function argsMatch(actual: unknown, expected: unknown): boolean {
  if (expected && typeof expected === 'object' && !Array.isArray(expected) && '$raw' in expected) {
    const raw = (expected as { $raw: string }).$raw;
    if (raw === '') return actual === '' || isDeepStrictEqual(actual, {});
    return actual === raw;
  }
  return isDeepStrictEqual(actual, expected);
}

/** Differences between a result and a vector's expectation (README rules); empty when they agree. */
export function compareWithExpected(result: Pick<ParseResult, 'calls' | 'content'>, expected: ToolCallVector['expected']): string[] {
  const problems: string[] = [];
  if (result.calls.length !== expected.calls.length) problems.push(`calls: got ${result.calls.length}, want ${expected.calls.length}`);
  expected.calls.forEach((want, i) => {
    const got = result.calls[i];
    if (!got) return;
    if (got.name !== want.name) problems.push(`call ${i} name: got ${got.name}, want ${want.name}`);
    if (!argsMatch(got.arguments, want.arguments)) problems.push(`call ${i} arguments: got ${JSON.stringify(got.arguments)}, want ${JSON.stringify(want.arguments)}`);
  });
  if (normContent(result.content) !== normContent(expected.content)) problems.push(`content: got ${JSON.stringify(result.content)}, want ${JSON.stringify(expected.content)}`);
  return problems;
}
