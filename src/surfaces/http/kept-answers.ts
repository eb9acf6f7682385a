// Which HTTP answers may be kept, under what key, and how a client revalidates its copy (ETag,
// If-None-Match → 304). A kept answer is the exact bytes the tool's envelope serialises to, so a
// repeat is byte for byte what a fresh run would say while the store is unchanged.

import { createHash } from 'node:crypto';
import type { AnyTool, ToolResult } from '../../tools/tool.js';
import type { Principal } from '../access/principal.js';
import type { KeptBody } from './answer-cache.js';

const utf8 = new TextEncoder();

/** True when `tool`'s answers may be kept per store version (its definition says it is store-determined). */
export function keepsAnswers(tool: AnyTool): boolean {
  return tool.storeDetermined === true && !tool.destructive && !tool.machineLocal;
}

/**
 * Who the answer is for, as far as it can differ: a team token's scope and read-only redaction
 * change answers, so two principals share an entry only when they see exactly the same.
 */
function principalKey(p: Principal): string {
  if (p.kind !== 'team') return p.kind;
  return JSON.stringify([p.tokenId, p.readOnly, [...p.projects].sort()]);
}

/**
 * `value` as JSON with object keys sorted, so the same arguments sent in another order (or
 * through a GET view instead of a POST) find the same entry. Keys are read with Object.keys, so
 * a `__proto__` key from JSON.parse is an ordinary key here too.
 *
 * @example canonicalJson({ b: 1, a: [true, { d: null, c: 'x' }] }) // '{"a":[true,{"c":"x","d":null}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const parts: string[] = [];
    for (const k of Object.keys(obj).sort()) if (obj[k] !== undefined) parts.push(`${JSON.stringify(k)}:${canonicalJson(obj[k])}`);
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The cache key of one call: tool, principal, arguments. */
export function answerKey(tool: AnyTool, principal: Principal, args: unknown): string {
  return `${tool.name}\u0000${principalKey(principal)}\u0000${canonicalJson(args)}`;
}

/**
 * The envelope as the bytes c.json would send, with a strong ETag when the answer is an `ok` one
 * (an error answer is served but neither kept nor validated: If-None-Match applies to 2xx only).
 */
export function serialise(result: ToolResult, status: number): KeptBody {
  // Its own buffer (not a slice of Node's shared pool, which a small kept body would pin).
  const body = utf8.encode(JSON.stringify(result));
  const etag = result.status === 'ok' ? `"${createHash('sha1').update(body).digest('base64url')}"` : null;
  return { status, body, etag };
}

/**
 * True when an If-None-Match header names `etag` (weak comparison, as RFC 9110 asks for this
 * header: a W/ prefix is ignored) or is `*`.
 *
 * @example matchesIfNoneMatch('W/"a", "b"', '"b"') // true
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  for (const raw of header.split(',')) {
    const tag = raw.trim();
    if (tag === '*' || tag === etag || (tag.startsWith('W/') && tag.slice(2) === etag)) return true;
  }
  return false;
}
