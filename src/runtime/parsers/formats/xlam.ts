// Salesforce xLAM: a JSON list of calls `[{"name": …, "arguments": {…}}]` as the answer, also
// seen inside a ```json fence, after [TOOL_CALLS], or between <tool_call> tags.

import { parseJsonCallsRegion } from '../json-region.js';
import type { ParserDefinition, RegionParse } from '../types.js';

const calls = (body: string, fenced = false): RegionParse => parseJsonCallsRegion(body, 'xlam', { argumentsOptional: false, fenced });

export const xlam: ParserDefinition = {
  id: 'xlam',
  family: 'json',
  format: '[{"name": …, "arguments": {…}}, …] as the output (or in ```json, after [TOOL_CALLS], in <tool_call>…</tool_call>)',
  regions: [
    { open: '[', close: { balanced: 'json', includeOpen: true }, atStartOnly: true },
    { open: '```json', close: '```' },
    { open: '[TOOL_CALLS]', close: { balanced: 'json', includeOpen: false } },
    { open: '<tool_call>', close: '</tool_call>' },
  ],
  parseRegion: (body, ctx) => {
    const parsed = calls(body);
    // A bare list that is not calls is just text: no error for it.
    return parsed.calls.length || ctx.rule.open !== '[' ? parsed : { calls: [], errors: [] };
  },
};
