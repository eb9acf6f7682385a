// XML-style formats carry every parameter as text. With the tool's JSON Schema the text becomes
// the declared type (integer, number, boolean, object, array, null); without a schema, or when the
// text does not fit the type, it stays the string the model wrote.

import { readStructuredValue } from './structured-value.js';
import type { ToolSchema } from './types.js';

function declaredTypes(schema: unknown): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const t = (schema as { type?: unknown }).type;
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  const anyOf = (schema as { anyOf?: unknown; oneOf?: unknown }).anyOf ?? (schema as { oneOf?: unknown }).oneOf;
  if (Array.isArray(anyOf)) return anyOf.flatMap(declaredTypes);
  return [];
}

/** The declared schema of one parameter of one tool, if the tools say. */
export function parameterSchema(tools: readonly ToolSchema[] | undefined, toolName: string, param: string): unknown {
  const tool = tools?.find((t) => t.name === toolName);
  const props = (tool?.parameters as { properties?: Record<string, unknown> } | undefined)?.properties;
  return props?.[param];
}

/** Convert one text parameter to its declared type; the text itself when no type fits. */
export function coerceParameter(text: string, schema: unknown): unknown {
  const types = declaredTypes(schema);
  if (types.length === 0 || types.includes('string')) return text;
  const trimmed = text.trim();
  for (const type of types) {
    if (type === 'integer' || type === 'int') {
      if (/^-?\d+$/.test(trimmed)) return Number(trimmed);
      if (/^-?\d+\.0*$/.test(trimmed)) return Math.trunc(Number(trimmed));
    } else if (type === 'number' || type === 'float' || type === 'double') {
      if (trimmed !== '' && Number.isFinite(Number(trimmed))) return Number(trimmed);
    } else if (type === 'boolean' || type === 'bool') {
      const lower = trimmed.toLowerCase();
      if (lower === 'true' || lower === 'false') return lower === 'true';
    } else if (type === 'null') {
      if (trimmed === 'null' || trimmed === 'None' || trimmed === '') return null;
    } else if (type === 'object' || type === 'array' || type === 'dict' || type === 'list') {
      const read = readStructuredValue(trimmed);
      if (read && typeof read.value === 'object' && read.value !== null && Array.isArray(read.value) === (type === 'array' || type === 'list')) return read.value;
    }
  }
  return text;
}

/**
 * What an undeclared parameter becomes: 'text' keeps it as written; 'json' reads it as JSON when
 * it is JSON (the chat templates of GLM-4.5 and Qwen3-Coder write non-string values with tojson).
 */
export type UndeclaredPolicy = 'text' | 'json';

/** What JSON.parse could accept (a cheap test first: a failed parse costs an exception). */
const JSON_LIKE = /^\s*(?:[[{"\d-]|true\s*$|false\s*$|null\s*$)/;

function undeclaredValue(text: string, policy: UndeclaredPolicy): unknown {
  if (policy === 'text' || !JSON_LIKE.test(text)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Convert every text parameter of a call to its declared type. */
export function coerceArguments(
  toolName: string,
  params: Record<string, string>,
  tools: readonly ToolSchema[] | undefined,
  undeclared: UndeclaredPolicy = 'text',
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, text] of Object.entries(params)) {
    const schema = tools ? parameterSchema(tools, toolName, key) : undefined;
    out[key] = schema !== undefined ? coerceParameter(text, schema) : undeclaredValue(text, undeclared);
  }
  return out;
}
