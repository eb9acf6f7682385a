// Stage 2 of the pipeline (seed §5): which kind of text is this — XML/tag calls, JSON, a pythonic
// call list, or a mix — so the right repair runs before the parse.

export type OutputFormat = 'xml' | 'json' | 'pythonic' | 'mixed' | 'text';

const XML_TAG = /<\/?[A-Za-z_|｜][^<>\n]{0,80}>/;
const PYTHONIC = /^\s*\[?\s*[A-Za-z_][\w.]*\(\s*(?:\)|[A-Za-z_]\w*\s*=)/;
/** A JSON value's start: a bracket followed by what only JSON puts there (not a Python name). */
const JSON_START = /^\s*(?:```(?:json)?\s*)?[[{]\s*[[{"\d\]}-]/;

/** Classify a piece of model output by the shapes it contains. Pure and linear in the text. */
export function classifyOutput(text: string): OutputFormat {
  const head = text.slice(0, 4096);
  const kinds = new Set<OutputFormat>();
  if (XML_TAG.test(head)) kinds.add('xml');
  if (JSON_START.test(head) || /[[{]\s*"/.test(head)) kinds.add('json');
  if (PYTHONIC.test(head)) kinds.add('pythonic');
  if (kinds.size === 0) return 'text';
  if (kinds.size > 1) return 'mixed';
  return [...kinds][0]!;
}
