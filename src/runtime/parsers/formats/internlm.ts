// InternLM2 / 2.5: a call is an action of the plugin executor,
// <|action_start|><|plugin|>\n{"name": …, "parameters": {…}}<|action_end|> ("arguments" is read too).

import { parseJsonCallsRegion } from '../json-region.js';
import type { ParserDefinition } from '../types.js';

export const internlm: ParserDefinition = {
  id: 'internlm',
  family: 'json',
  format: '<|action_start|><|plugin|>\\n{"name": …, "parameters": {…}}<|action_end|>',
  regions: [
    { open: '<|action_start|><|plugin|>', close: '<|action_end|>' },
    { open: '<|action_end|>', close: null },
  ],
  betweenCalls: ' \n',
  parseRegion: (body) => parseJsonCallsRegion(body, 'internlm', { argumentsOptional: false }),
};
