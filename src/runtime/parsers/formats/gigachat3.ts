// GigaChat 3: the reply's text, then <|message_sep|>, then a call as a new "function call" turn:
// `text<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": …, "arguments": {…}}` (one call per
// reply); later builds write `<|function_call|>{…}` instead. The turn may end with </s>.

import { parseJsonCallsRegion } from '../json-region.js';
import type { ParserDefinition } from '../types.js';

const jsonAfter = { balanced: 'json', includeOpen: false } as const;

export const gigachat3: ParserDefinition = {
  id: 'gigachat3',
  family: 'json',
  format: 'text<|message_sep|>\\n\\nfunction call<|role_sep|>\\n{"name": …, "arguments": {…}} (or <|function_call|>{…})',
  regions: [
    { open: 'function call<|role_sep|>', close: jsonAfter },
    { open: '<|function_call|>', close: jsonAfter },
    // Turn separators, not text.
    { open: '<|message_sep|>', close: null },
    { open: '</s>', close: null },
  ],
  parseRegion: (body) => parseJsonCallsRegion(body, 'gigachat3', { argumentsOptional: false }),
};
