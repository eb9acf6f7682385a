// IBM Granite 3.x: `<|tool_call|>` (or the string form `<tool_call>`) followed by a JSON list of
// calls, `[{"name": …, "arguments": {…}}, …]`; a bare list at the start of the output too.

import { parseJsonCallsRegion } from '../json-region.js';
import type { ParserDefinition } from '../types.js';

const after = { balanced: 'json', includeOpen: false } as const;

export const granite: ParserDefinition = {
  id: 'granite',
  family: 'json',
  format: '<|tool_call|>[{"name": …, "arguments": {…}}, …] (also <tool_call>[…] or a bare list at the start)',
  regions: [
    { open: '<|tool_call|>', close: after },
    { open: '<tool_call>', close: after },
    { open: '[', close: { balanced: 'json', includeOpen: true }, atStartOnly: true },
  ],
  parseRegion: (body) => parseJsonCallsRegion(body, 'granite', { argumentsOptional: false }),
};
