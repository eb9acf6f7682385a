// Hermes (NousResearch Hermes 2 Pro / 3, Qwen2.5 chat templates): one JSON object per call,
// `<tool_call>{"name": "f", "arguments": {...}}</tool_call>`, any number of them.

import { parseJsonCallsRegion } from '../json-region.js';
import type { ParserDefinition } from '../types.js';

export const hermes: ParserDefinition = {
  id: 'hermes',
  family: 'json',
  format: '<tool_call>{"name": …, "arguments": {…}}</tool_call>, repeated for parallel calls',
  regions: [{ open: '<tool_call>', close: '</tool_call>' }],
  betweenCalls: ' \n',
  parseRegion: (body) => parseJsonCallsRegion(body, 'hermes', { argumentsOptional: true }),
};
