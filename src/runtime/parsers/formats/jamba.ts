// AI21 Jamba 1.5 / 1.6: one JSON list of calls between <tool_calls> tags,
// <tool_calls>[{"name": …, "arguments": {…}}, …]</tool_calls>.

import { parseJsonCallsRegion } from '../json-region.js';
import type { ParserDefinition } from '../types.js';

export const jamba: ParserDefinition = {
  id: 'jamba',
  family: 'json',
  format: '<tool_calls>[{"name": …, "arguments": {…}}, …]</tool_calls>',
  regions: [
    { open: '<tool_calls>', close: '</tool_calls>' },
    { open: '</tool_calls>', close: null },
  ],
  parseRegion: (body) => parseJsonCallsRegion(body, 'jamba', { argumentsOptional: false }),
};
