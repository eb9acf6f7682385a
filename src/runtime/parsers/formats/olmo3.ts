// AllenAI Olmo 3: calls are Python-style, one per line, inside <function_calls> tags —
// <function_calls>f(city='SF', n=1)\ng()</function_calls>. Values are Python literals, and the
// model also writes JSON's null/true/false, which are read as None/True/False.

import { parsePythonicLines } from '../pythonic-lines.js';
import type { ParserDefinition } from '../types.js';

export const olmo3: ParserDefinition = {
  id: 'olmo3',
  family: 'pythonic',
  format: "<function_calls>f(a='x', n=1)\\ng()</function_calls> (one Python-style call per line; null/true/false accepted)",
  regions: [
    { open: '<function_calls>', close: '</function_calls>' },
    { open: '</function_calls>', close: null },
  ],
  betweenCalls: ' \n',
  parseRegion: (body) => parsePythonicLines(body, 'olmo3'),
};
