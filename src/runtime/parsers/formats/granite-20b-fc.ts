// IBM granite-20b-functioncalling: each call is `<function_call> ` followed by one JSON object
// {"name": …, "arguments": {…}}; parallel calls repeat the marker (usually on a new line). There is
// no closing tag: a call ends where its JSON object ends.

import { parseJsonCallsRegion } from '../json-region.js';
import type { ParserDefinition } from '../types.js';

export const granite20bFc: ParserDefinition = {
  id: 'granite-20b-fc',
  family: 'json',
  format: '<function_call> {"name": …, "arguments": {…}}, the marker repeated before each parallel call',
  regions: [{ open: '<function_call>', close: { balanced: 'json', includeOpen: false } }],
  betweenCalls: ' \n',
  parseRegion: (body) => parseJsonCallsRegion(body, 'granite-20b-fc', { argumentsOptional: false }),
};
