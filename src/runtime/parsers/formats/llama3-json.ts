// Llama 3.1 / 3.2 JSON tool calling: a JSON object `{"name": …, "parameters": {…}}` (or
// "arguments") in the text, optionally after `<|python_tag|>`; several are separated by `;`.

import { parseJsonCallsRegion } from '../json-region.js';
import type { ParserDefinition } from '../types.js';

export const llama3Json: ParserDefinition = {
  id: 'llama3_json',
  family: 'json',
  format: '{"name": …, "parameters": {…}} anywhere in the text, several separated by ";" (optional <|python_tag|>)',
  regions: [
    { open: '{', close: { balanced: 'json', includeOpen: true } },
    { open: '<|python_tag|>', close: null },
  ],
  betweenCalls: ' \t\r\n;',
  // A bare JSON object is only a call when it has a name and parameters: other objects are text.
  parseRegion: (body) => {
    const parsed = parseJsonCallsRegion(body, 'llama3_json', { argumentsOptional: false });
    return parsed.calls.length ? parsed : { calls: [], errors: [] };
  },
};
