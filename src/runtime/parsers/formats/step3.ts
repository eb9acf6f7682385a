// StepFun Step-3: a section <｜tool_calls_begin｜> of calls <｜tool_call_begin｜>…<｜tool_call_end｜>,
// each `<steptml:invoke name="NAME"><steptml:parameter name="KEY">value</steptml:parameter>…</steptml:invoke>`.

import { coerceArguments } from '../schema-coerce.js';
import type { ParserDefinition, RegionContext, RegionParse } from '../types.js';
import { extractElements, readAttribute } from '../xml-repair.js';

function parseStep3Piece(piece: string, ctx: RegionContext): RegionParse {
  const out: RegionParse = { calls: [], errors: [] };
  for (const invoke of extractElements(piece, '<steptml:invoke', '</steptml:invoke>')) {
    const name = invoke.headClosed ? readAttribute(invoke.head, 'name')?.trim() : undefined;
    if (!name) {
      out.errors.push({ code: 'bad_call', message: 'step3: a <steptml:invoke> has no complete name attribute' });
      continue;
    }
    const params: Record<string, string> = {};
    for (const p of extractElements(invoke.value, '<steptml:parameter', '</steptml:parameter>', ['</steptml:invoke>'])) {
      const key = p.headClosed ? readAttribute(p.head, 'name') : null;
      if (key) params[key] = p.value;
    }
    out.calls.push({ name, arguments: coerceArguments(name, params, ctx.tools) });
  }
  return out;
}

export const step3: ParserDefinition = {
  id: 'step3',
  family: 'xml',
  format: '<｜tool_calls_begin｜><｜tool_call_begin｜>[function<｜tool_sep｜>]<steptml:invoke name="F"><steptml:parameter name="K">v</steptml:parameter></steptml:invoke><｜tool_call_end｜>…<｜tool_calls_end｜>',
  regions: [
    { open: '<｜tool_calls_begin｜>', close: '<｜tool_calls_end｜>', callEnd: '<｜tool_call_end｜>' },
    { open: '<｜tool_call_begin｜>', close: '<｜tool_call_end｜>' },
  ],
  parseRegion: parseStep3Piece,
};
