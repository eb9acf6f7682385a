// Kimi K2: a section <|tool_calls_section_begin|> … <|tool_calls_section_end|> of calls
// <|tool_call_begin|>functions.NAME:INDEX<|tool_call_argument_begin|>{…}<|tool_call_end|>.

import { argumentsFromText } from '../call-shapes.js';
import type { ParserDefinition, RegionParse } from '../types.js';

const CALL = '<|tool_call_begin|>';
const ARGS = '<|tool_call_argument_begin|>';
/** The call id: functions.NAME:INDEX (the "functions." prefix is optional in practice). */
const CALL_ID = /^(?:functions\.)?([A-Za-z0-9_\-.]+?):\d+$/;

function parseKimiPiece(piece: string): RegionParse {
  const out: RegionParse = { calls: [], errors: [] };
  const start = piece.indexOf(CALL);
  // Text before the call marker inside a section is noise between markers.
  const text = start >= 0 ? piece.slice(start + CALL.length) : piece;
  if (start < 0 && !text.includes(ARGS)) return out;
  const argsAt = text.indexOf(ARGS);
  const id = (argsAt >= 0 ? text.slice(0, argsAt) : text).trim();
  const m = CALL_ID.exec(id);
  if (!m) {
    out.errors.push({ code: 'bad_call', message: `kimi_k2: call id "${id.slice(0, 60)}" is not functions.NAME:INDEX; call left out` });
    return out;
  }
  const name = m[1]!;
  const parsed = argumentsFromText(argsAt >= 0 ? text.slice(argsAt + ARGS.length) : '', name, 'kimi_k2');
  out.calls.push({ name, arguments: parsed.arguments });
  if (parsed.error) out.errors.push(parsed.error);
  return out;
}

export const kimiK2: ParserDefinition = {
  id: 'kimi_k2',
  family: 'json',
  format: '<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}<|tool_call_end|>…<|tool_calls_section_end|>',
  regions: [
    { open: '<|tool_calls_section_begin|>', close: '<|tool_calls_section_end|>', callEnd: '<|tool_call_end|>' },
    { open: '<|tool_call_section_begin|>', close: '<|tool_call_section_end|>', callEnd: '<|tool_call_end|>' },
    { open: CALL, close: '<|tool_call_end|>' },
  ],
  parseRegion: (body, ctx) => parseKimiPiece(ctx.rule.open === CALL ? CALL + body : body),
};
