// IBM Granite 4: the Hermes layout, `<tool_call>{"name": …, "arguments": {…}}</tool_call>`.

import { parseJsonCallsRegion } from '../json-region.js';
import type { ParserDefinition } from '../types.js';

export const granite4: ParserDefinition = {
  id: 'granite4',
  family: 'json',
  format: '<tool_call>{"name": …, "arguments": {…}}</tool_call> (the Hermes layout)',
  regions: [{ open: '<tool_call>', close: '</tool_call>' }],
  betweenCalls: ' \n',
  parseRegion: (body) => parseJsonCallsRegion(body, 'granite4', { argumentsOptional: true }),
};
