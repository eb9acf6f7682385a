// GLM-4.7: the GLM-4.5 tags, but the chat template writes them without line breaks —
// <tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>…</tool_call> — and a call with no
// arguments is just <tool_call>NAME</tool_call>. Non-string values are written as JSON.

import type { ParserDefinition } from '../types.js';
import { parseGlmRegion } from './glm45.js';

export const glm47: ParserDefinition = {
  id: 'glm47',
  family: 'xml',
  format: '<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>…</tool_call> (no line breaks; <tool_call>NAME</tool_call> for no arguments)',
  regions: [{ open: '<tool_call>', close: '</tool_call>' }],
  betweenCalls: ' \n',
  parseRegion: (body, ctx) => parseGlmRegion(body, ctx, 'glm47'),
};
