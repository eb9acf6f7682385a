// DeepSeek-V3.1: like V3 without the "function" type and the ```json fence —
// <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>…<｜tool▁calls▁end｜>
// (the ▁ is U+2581, the bars U+FF5C).

import { argumentsFromText } from '../call-shapes.js';
import type { ParserDefinition, RegionParse } from '../types.js';

const CALL = '<｜tool▁call▁begin｜>';
const SEP = '<｜tool▁sep｜>';

function parseV31Piece(piece: string): RegionParse {
  const start = piece.indexOf(CALL);
  if (start < 0) {
    // A section without call markers is not a call this format writes: it stays text.
    return { calls: [], errors: piece.trim() ? [{ code: 'bad_call', message: 'deepseek_v31: text in the tool-call section is not a <｜tool▁call▁begin｜> call' }] : [] };
  }
  const text = piece.slice(start + CALL.length);
  const sep = text.indexOf(SEP);
  if (sep < 0) return { calls: [], errors: [{ code: 'bad_call', message: 'deepseek_v31: a call has no <｜tool▁sep｜> after its name' }] };
  const name = text.slice(0, sep).trim();
  if (!name) return { calls: [], errors: [{ code: 'bad_call', message: 'deepseek_v31: a call has no name' }] };
  const parsed = argumentsFromText(text.slice(sep + SEP.length), name, 'deepseek_v31');
  return { calls: [{ name, arguments: parsed.arguments }], errors: parsed.error ? [parsed.error] : [] };
}

export const deepseekV31: ParserDefinition = {
  id: 'deepseek_v31',
  family: 'json',
  format: '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>…<｜tool▁calls▁end｜>',
  regions: [
    { open: '<｜tool▁calls▁begin｜>', close: '<｜tool▁calls▁end｜>', callEnd: '<｜tool▁call▁end｜>' },
    { open: CALL, close: '<｜tool▁call▁end｜>' },
  ],
  parseRegion: (body, ctx) => parseV31Piece(ctx.rule.open === CALL ? CALL + body : body),
};
