// GLM-4.5 / 4.6: <tool_call>NAME\n<arg_key>KEY</arg_key>\n<arg_value>VALUE</arg_value>…</tool_call>.
// The chat template writes string values as they are and other values as JSON, so without a
// schema a value that reads as JSON is taken as such.

import { coerceArguments } from '../schema-coerce.js';
import type { ParserDefinition, RegionContext, RegionParse } from '../types.js';
import { extractElements } from '../xml-repair.js';

/** Shared with glm47, whose template writes the same tags without the line breaks. */
export function parseGlmRegion(body: string, ctx: RegionContext, parserId = 'glm45'): RegionParse {
  const firstTag = body.indexOf('<');
  const name = (firstTag < 0 ? body : body.slice(0, firstTag)).trim();
  if (!name) return { calls: [], errors: body.trim() ? [{ code: 'bad_call', message: `${parserId}: a <tool_call> has no function name` }] : [] };
  const keys = extractElements(body, '<arg_key>', '</arg_key>', ['<arg_value>']);
  const values = extractElements(body, '<arg_value>', '</arg_value>', ['<arg_key>', '</tool_call>']);
  const params: Record<string, string> = {};
  const errors: RegionParse['errors'] = [];
  let v = 0;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    const nextKeyStart = keys[k + 1]?.start ?? Infinity;
    while (v < values.length && values[v]!.start < key.start) v++;
    const value = values[v];
    // A key whose closing tag is missing cannot be trusted to have ended where we think.
    if (!key.closed || !value || value.start > nextKeyStart) {
      errors.push({ code: 'bad_call', message: `${parserId}: argument "${key.value.trim().slice(0, 40)}" of "${name}" is malformed; left out` });
      continue;
    }
    params[key.value.trim()] = value.value;
    v++;
  }
  return { calls: [{ name, arguments: coerceArguments(name, params, ctx.tools, 'json') }], errors };
}

export const glm45: ParserDefinition = {
  id: 'glm45',
  family: 'xml',
  format: '<tool_call>NAME\\n<arg_key>K</arg_key>\\n<arg_value>V</arg_value>…</tool_call>',
  regions: [{ open: '<tool_call>', close: '</tool_call>' }],
  parseRegion: (body, ctx) => parseGlmRegion(body, ctx),
};
