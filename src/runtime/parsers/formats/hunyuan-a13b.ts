// Tencent Hunyuan-A13B: a JSON list of calls between <tool_calls> tags,
// <tool_calls>[{"name": …, "arguments": {…}}, …]</tool_calls>. The model wraps its reply in
// <answer>…</answer> (after a <think> block): those tags are dropped, their text is content.

import { parseJsonCallsRegion } from '../json-region.js';
import type { ParserDefinition } from '../types.js';

export const hunyuanA13b: ParserDefinition = {
  id: 'hunyuan_a13b',
  family: 'json',
  format: '<tool_calls>[{"name": …, "arguments": {…}}, …]</tool_calls>, inside the reply\'s <answer>…</answer>',
  regions: [
    { open: '<tool_calls>', close: '</tool_calls>' },
    { open: '</tool_calls>', close: null },
    { open: '<answer>', close: null },
    { open: '</answer>', close: null },
  ],
  parseRegion: (body) => parseJsonCallsRegion(body, 'hunyuan_a13b', { argumentsOptional: false }),
};
