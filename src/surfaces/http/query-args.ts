// GET query strings to tool arguments, typed by the tool's own JSON Schema (numbers, booleans,
// arrays), so the read-only conveniences need no schema of their own.

/** The parts of a JSON Schema this conversion looks at. */
export interface PropertySchema {
  type?: string | string[];
  anyOf?: PropertySchema[];
  items?: PropertySchema;
}

export interface ObjectSchema {
  properties?: Record<string, PropertySchema>;
}

function typesOf(schema: PropertySchema | undefined): string[] {
  if (!schema) return [];
  const own = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  return [...own, ...(schema.anyOf ?? []).flatMap(typesOf)];
}

function scalar(value: string, schema: PropertySchema | undefined): unknown {
  const types = typesOf(schema);
  if ((types.includes('integer') || types.includes('number')) && value.trim() !== '') {
    const n = Number(value);
    if (Number.isFinite(n)) return n;
  }
  if (types.includes('boolean')) {
    if (value === 'true' || value === '1' || value === '') return true;
    if (value === 'false' || value === '0') return false;
  }
  // Anything that does not convert stays a string, so the tool's validation names the problem.
  return value;
}

/**
 * Tool arguments from query parameters: each converted by the type its property declares; an
 * array takes repeated parameters and comma-separated values (`?event_types=a,b&event_types=c`).
 * `aliases` renames short parameters (`q` → `query`). Unknown names pass through as strings so
 * that the tool rejects them with its usual INVALID_ARGUMENTS.
 *
 * @example queryToArgs(new URLSearchParams('limit=5&top_level_only=false'), schema) // { limit: 5, top_level_only: false }
 */
export function queryToArgs(
  params: URLSearchParams,
  schema: ObjectSchema,
  aliases: Readonly<Record<string, string>> = {},
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const rawKey of new Set(params.keys())) {
    const key = aliases[rawKey] ?? rawKey;
    const values = params.getAll(rawKey);
    const property = schema.properties?.[key];
    if (typesOf(property).includes('array')) {
      const items = values.flatMap((v) => v.split(',')).filter((v) => v !== '');
      args[key] = items.map((v) => scalar(v, property?.items));
    } else {
      args[key] = scalar(values[values.length - 1] ?? '', property);
    }
  }
  return args;
}
