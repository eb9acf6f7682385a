// Pythonic tool calls (Llama 3.2 / ToolACE style): the output is a Python list of calls,
// `[get_weather(city='SF', metric='celsius'), other()]`.

import { parsePythonicRegion } from '../pythonic-region.js';
import type { ParserDefinition } from '../types.js';

export const pythonic: ParserDefinition = {
  id: 'pythonic',
  family: 'pythonic',
  format: "[f(a='x', n=1), g()] as the output (Python literals: strings, numbers, True/False/None, lists, dicts)",
  regions: [{ open: '[', close: { balanced: 'python', includeOpen: true }, atStartOnly: true }],
  parseRegion: (body) => parsePythonicRegion(body, 'pythonic', true),
};
