// MiniMax-M1: `<tool_calls>` then one JSON object per line, `{"name": …, "arguments": {…}}`,
// then `</tool_calls>`.

import { callsFromJsonValue, repairedNotice, topLevelJsonTexts } from '../call-shapes.js';
import { repairJson } from '../json-repair.js';
import type { ParserDefinition, RegionParse } from '../types.js';

function parseMinimaxRegion(body: string): RegionParse {
  const out: RegionParse = { calls: [], errors: [] };
  for (const text of topLevelJsonTexts(body)) {
    const value = repairJson(text);
    if (!value) {
      out.errors.push({ code: 'unrepairable_json', message: `minimax: a line in <tool_calls> is not JSON: ${text.slice(0, 60)}` });
      continue;
    }
    const parsed = callsFromJsonValue(value.value, 'minimax', { argumentsOptional: false });
    out.calls.push(...parsed.calls);
    out.errors.push(...parsed.errors);
    if (value.repaired) for (const call of parsed.calls) out.errors.push(repairedNotice(call.name, 'minimax'));
  }
  return out;
}

export const minimax: ParserDefinition = {
  id: 'minimax',
  family: 'json',
  format: '<tool_calls>\\n{"name": …, "arguments": {…}}\\n…</tool_calls> (one JSON object per line)',
  regions: [
    { open: '<tool_calls>', close: '</tool_calls>' },
    { open: '</tool_calls>', close: null },
  ],
  parseRegion: (body) => parseMinimaxRegion(body),
};
