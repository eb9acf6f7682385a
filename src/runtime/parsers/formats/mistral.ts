// Mistral: `[TOOL_CALLS]` then a JSON list of calls (tokenizers before v11), or, from v11 on,
// `[TOOL_CALLS]name[ARGS]{…}` once per call (optionally `name[CALL_ID]id[ARGS]{…}`).

import { argumentsFromText } from '../call-shapes.js';
import { parseJsonCallsRegion } from '../json-region.js';
import type { ParserDefinition, RegionParse } from '../types.js';

function parseMistralPiece(piece: string): RegionParse {
  const text = piece.trim();
  if (!text) return { calls: [], errors: [] };
  if (text.startsWith('[') || text.startsWith('{')) return parseJsonCallsRegion(text, 'mistral', { argumentsOptional: false });
  const args = text.indexOf('[ARGS]');
  if (args < 0) return { calls: [], errors: [{ code: 'bad_call', message: `mistral: "[TOOL_CALLS]${text.slice(0, 40)}" has no [ARGS]` }] };
  const name = text.slice(0, args).split('[CALL_ID]')[0]!.trim();
  if (!name) return { calls: [], errors: [{ code: 'bad_call', message: 'mistral: a call has no name before [ARGS]' }] };
  const parsed = argumentsFromText(text.slice(args + '[ARGS]'.length), name, 'mistral');
  return { calls: [{ name, arguments: parsed.arguments }], errors: parsed.error ? [parsed.error] : [] };
}

export const mistral: ParserDefinition = {
  id: 'mistral',
  family: 'json',
  format: '[TOOL_CALLS][{"name": …, "arguments": {…}}] or, v11+, [TOOL_CALLS]name[ARGS]{…} per call',
  // The calls run to the end of the turn (</s>); each further [TOOL_CALLS] ends the call before it.
  regions: [{ open: '[TOOL_CALLS]', close: '</s>', callEnd: '[TOOL_CALLS]' }],
  parseRegion: (body) => parseMistralPiece(body),
};
