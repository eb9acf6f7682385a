// The spelling of the registry's JSON Schemas that agents are given, wherever they get them: the
// MCP listing (surfaces/mcp/tool-list.ts) and the agent runtime's tool specs (runtime/actions/).
// Defined here, below both, so neither copies it.

type JsonObject = Record<string, unknown>;

/**
 * `type: ["string", "null"]` (zod's nullable) spelled as anyOf branches with one type each: the
 * same constraint, but clients that map schemas onto a single-type dialect (Gemini's OpenAPI
 * subset) accept it. The inspector's --strict portability check asks for this.
 *
 * @example portable({ type: ['string', 'null'] }) // { anyOf: [{ type: 'string' }, { type: 'null' }] }
 */
export function portable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portable);
  if (!node || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === 'enum' || key === 'const' || key === 'default' ? value : portable(value);
  if (Array.isArray(out.type) && out.type.length > 1 && out.anyOf === undefined) {
    const { type, ...rest } = out;
    return { anyOf: (type as unknown[]).map((t) => ({ type: t })), ...rest };
  }
  return out;
}

/**
 * zod-to-json-schema stamps draft-07 as `$schema`; MCP reads a schema without one as 2020-12, and
 * some clients' validators refuse a draft they were not built with. The keywords emitted here
 * mean the same under both, so the stamp is dropped.
 */
export function withoutDialect(schema: JsonObject): JsonObject & { type: 'object' } {
  const { $schema: _dialect, ...rest } = portable(schema) as JsonObject;
  return { ...rest, type: 'object' };
}
