// DeepSeek-V3 / R1: <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME
// ```json\n{…}\n```<｜tool▁call▁end｜>…<｜tool▁calls▁end｜> (the ▁ is U+2581, the bars U+FF5C).

import { argumentsFromText } from '../call-shapes.js';
import type { ParserDefinition, RegionParse } from '../types.js';

const CALL = '<｜tool▁call▁begin｜>';
const SEP = '<｜tool▁sep｜>';

function parseDeepseekPiece(piece: string): RegionParse {
  const start = piece.indexOf(CALL);
  const text = start >= 0 ? piece.slice(start + CALL.length) : piece;
  const sep = text.indexOf(SEP);
  if (sep < 0) {
    return text.trim() ? { calls: [], errors: [{ code: 'bad_call', message: 'deepseek_v3: a call has no <｜tool▁sep｜>' }] } : { calls: [], errors: [] };
  }
  const rest = text.slice(sep + SEP.length);
  const newline = rest.indexOf('\n');
  const name = (newline < 0 ? rest : rest.slice(0, newline)).trim();
  if (!name) return { calls: [], errors: [{ code: 'bad_call', message: 'deepseek_v3: a call has no name' }] };
  let args = newline < 0 ? '' : rest.slice(newline + 1);
  args = args.replace(/^\s*```(?:json)?\s*/, '').replace(/\s*```\s*$/, '');
  const parsed = argumentsFromText(args, name, 'deepseek_v3');
  return { calls: [{ name, arguments: parsed.arguments }], errors: parsed.error ? [parsed.error] : [] };
}

export const deepseekV3: ParserDefinition = {
  id: 'deepseek_v3',
  family: 'json',
  format: '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\\n```json\\n{…}\\n```<｜tool▁call▁end｜>…<｜tool▁calls▁end｜>',
  regions: [
    { open: '<｜tool▁calls▁begin｜>', close: '<｜tool▁calls▁end｜>', callEnd: '<｜tool▁call▁end｜>' },
    { open: CALL, close: '<｜tool▁call▁end｜>' },
  ],
  parseRegion: (body, ctx) => parseDeepseekPiece(ctx.rule.open === CALL ? CALL + body : body),
};
