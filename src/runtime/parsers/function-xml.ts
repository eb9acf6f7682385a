// The Qwen3-Coder XML layout, shared by qwen3_xml and step3p5:
// <tool_call><function=NAME><parameter=KEY>value</parameter>…</function></tool_call>.
// Values sit on their own lines; unclosed parameters end at the next one (xml-repair).

import { coerceArguments } from './schema-coerce.js';
import type { ParserDefinition, RegionContext, RegionParse } from './types.js';
import { extractElements, trimValueNewlines, type TaggedElement } from './xml-repair.js';

export function parseFunctionXml(body: string, ctx: RegionContext, parserId: string): RegionParse {
  // A region opened by a bare "<function=" (the <tool_call> tag was left out) starts at the name.
  const text = ctx.rule.open === '<function=' ? `<function=${body}</function>` : body;
  const out: RegionParse = { calls: [], errors: [] };
  for (const element of extractElements(text, '<function=', '</function>')) {
    const fn = repairFunctionHead(element);
    const name = fn.head.trim();
    if (!fn.headClosed || !/^[^\s<>]+$/.test(name)) {
      out.errors.push({ code: 'bad_call', message: `${parserId}: a <function=…> tag has no complete name (${JSON.stringify(name.slice(0, 40))}); call left out` });
      continue;
    }
    const params: Record<string, string> = {};
    for (const p of extractElements(fn.value, '<parameter=', '</parameter>', ['</function>'])) {
      if (!p.headClosed) continue;
      params[p.head.trim()] = trimValueNewlines(p.value);
    }
    // Undeclared values are read as JSON when they are: the Qwen3-Coder template writes them with tojson.
    out.calls.push({ name, arguments: coerceArguments(name, params, ctx.tools, 'json') });
  }
  return out;
}

/**
 * `<function=NAME` with its '>' missing: the name ends at the line break, and the '>' that was
 * taken as the end of the tag belongs to the first parameter tag after it.
 */
function repairFunctionHead(fn: TaggedElement): TaggedElement {
  const nl = fn.head.indexOf('\n');
  if (nl < 0 || !fn.head.slice(0, nl).trim()) return fn;
  return { ...fn, head: fn.head.slice(0, nl), value: `${fn.head.slice(nl)}>${fn.value}` };
}

/** A parser for a family that uses this layout (`family` names it in the one-line format). */
export function functionXmlParser(id: string, aliases: string[], family: string): ParserDefinition {
  return {
    id,
    aliases,
    family: 'xml',
    format: `${family}: <tool_call>\\n<function=NAME>\\n<parameter=KEY>\\nvalue\\n</parameter>…</function>\\n</tool_call>`,
    regions: [
      { open: '<tool_call>', close: '</tool_call>' },
      { open: '<function=', close: '</function>' },
      // A closing tag whose opening tag was left out: dropped, not shown as content.
      { open: '</tool_call>', close: null },
    ],
    betweenCalls: ' \n',
    parseRegion: (body, ctx) => parseFunctionXml(body, ctx, id),
  };
}
