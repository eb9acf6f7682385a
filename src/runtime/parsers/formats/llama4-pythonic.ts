// Llama 4 pythonic: a Python list of calls, `[f(a=1), g()]`, as the output or between
// <|python_start|> and <|python_end|>.

import { parsePythonicRegion } from '../pythonic-region.js';
import type { ParserDefinition } from '../types.js';

export const llama4Pythonic: ParserDefinition = {
  id: 'llama4_pythonic',
  family: 'pythonic',
  format: "[f(a='x'), g()] as the output, optionally wrapped in <|python_start|>…<|python_end|>",
  regions: [
    { open: '<|python_start|>', close: '<|python_end|>' },
    { open: '[', close: { balanced: 'python', includeOpen: true }, atStartOnly: true },
  ],
  parseRegion: (body, ctx) => parsePythonicRegion(body, 'llama4_pythonic', ctx.rule.open === '['),
};
