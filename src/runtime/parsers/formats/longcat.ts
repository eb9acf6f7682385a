// Meituan LongCat-Flash: the Hermes layout under its own tag,
// <longcat_tool_call>{"name": …, "arguments": {…}}</longcat_tool_call>, repeated for parallel calls.

import { parseJsonCallsRegion } from '../json-region.js';
import type { ParserDefinition } from '../types.js';

export const longcat: ParserDefinition = {
  id: 'longcat',
  family: 'json',
  format: '<longcat_tool_call>{"name": …, "arguments": {…}}</longcat_tool_call>, repeated for parallel calls',
  regions: [
    { open: '<longcat_tool_call>', close: '</longcat_tool_call>' },
    // A closing tag whose opening tag was left out: dropped, not shown as content.
    { open: '</longcat_tool_call>', close: null },
  ],
  betweenCalls: ' \n',
  parseRegion: (body) => parseJsonCallsRegion(body, 'longcat', { argumentsOptional: true }),
};
