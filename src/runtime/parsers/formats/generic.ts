// The fallback for a model whose format is unknown: it looks for the shapes models commonly use,
// anywhere in the text — JSON call objects ({"name", "arguments" | "parameters"}) bare or in
// <tool_call>, <tool_calls>, <function_call> or after [TOOL_CALLS]; XML-tag calls (<function=NAME>
// with <parameter=K>, GLM's <arg_key>/<arg_value>, <invoke name="NAME"> with <parameter name="K">);
// and pythonic calls ([f(a=1)] at the start, or one per line in <function_calls>). Brackets that turn
// out not to hold calls stay text, without an error.

import { callsFromJsonValue, repairedNotice, topLevelJsonTexts } from '../call-shapes.js';
import { parseFunctionXml } from '../function-xml.js';
import { repairJson } from '../json-repair.js';
import { parsePythonicLines } from '../pythonic-lines.js';
import { parsePythonicRegion } from '../pythonic-region.js';
import { coerceArguments } from '../schema-coerce.js';
import type { ParserDefinition, RegionContext, RegionParse } from '../types.js';
import { extractElements, readAttribute } from '../xml-repair.js';
import { parseGlmRegion } from './glm45.js';

const ID = 'generic';
const jsonAfter = { balanced: 'json', includeOpen: false } as const;

/** Every top-level JSON value in the text read as calls (one list, or objects one after another). */
function jsonCalls(text: string, quiet: boolean): RegionParse {
  const out: RegionParse = { calls: [], errors: [] };
  for (const piece of topLevelJsonTexts(text)) {
    const value = repairJson(piece);
    if (!value) {
      if (!quiet) out.errors.push({ code: 'unrepairable_json', message: `${ID}: a call region is not JSON and could not be repaired: ${piece.slice(0, 60)}` });
      continue;
    }
    const parsed = callsFromJsonValue(value.value, ID, { argumentsOptional: false });
    out.calls.push(...parsed.calls);
    if (!quiet || parsed.calls.length) out.errors.push(...parsed.errors);
    if (value.repaired) for (const call of parsed.calls) out.errors.push(repairedNotice(call.name, ID));
  }
  return out;
}

/** <invoke name="F"><parameter name="K">v</parameter>…</invoke>, the Anthropic-style XML calls. */
function invokeCalls(text: string, ctx: RegionContext): RegionParse {
  const out: RegionParse = { calls: [], errors: [] };
  for (const invoke of extractElements(text, '<invoke', '</invoke>')) {
    const name = invoke.headClosed ? readAttribute(invoke.head, 'name')?.trim() : undefined;
    if (!name) {
      out.errors.push({ code: 'bad_call', message: `${ID}: an <invoke> has no complete name attribute` });
      continue;
    }
    const params: Record<string, string> = {};
    for (const p of extractElements(invoke.value, '<parameter', '</parameter>', ['</invoke>'])) {
      const key = p.headClosed ? readAttribute(p.head, 'name') : null;
      if (key) params[key] = p.value;
    }
    out.calls.push({ name, arguments: coerceArguments(name, params, ctx.tools, 'json') });
  }
  return out;
}

/** A tagged region's body, whichever of the known shapes it holds. */
function taggedBody(body: string, ctx: RegionContext): RegionParse {
  const text = body.trim();
  if (!text) return { calls: [], errors: [] };
  if (text.startsWith('{') || text.startsWith('[{')) return jsonCalls(text, false);
  if (text.includes('<function=')) return parseFunctionXml(text, ctx, ID);
  if (text.includes('<invoke')) return invokeCalls(text, ctx);
  if (text.includes('<arg_key>') || /^[\w.\-]+$/.test(text)) return parseGlmRegion(text, ctx, ID);
  return parsePythonicLines(text, ID);
}

function parseGenericRegion(body: string, ctx: RegionContext): RegionParse {
  switch (ctx.rule.open) {
    case '{':
      // A bare object is a call only when it has the call shape; any other object is text.
      return jsonCalls(body, true);
    case '[': {
      if (/^\s*\[\s*[{\]]/.test(body)) return jsonCalls(body, true);
      return parsePythonicRegion(body, ID, true);
    }
    case '<function=':
      return parseFunctionXml(body, ctx, ID);
    case '<invoke':
      return invokeCalls(`<invoke${body}</invoke>`, ctx);
    case '[TOOL_CALLS]':
    case '<function_call>':
      return jsonCalls(body, false);
    default:
      return taggedBody(body, ctx);
  }
}

export const generic: ParserDefinition = {
  id: 'generic',
  family: 'mixed',
  format: 'any of: {"name", "arguments"} objects (bare, in <tool_call>/<tool_calls>, after <function_call> or [TOOL_CALLS]); <function=F><parameter=K>, <arg_key>/<arg_value>, <invoke name=F>; [f(a=1)] at the start or lines in <function_calls>',
  regions: [
    { open: '<tool_call>', close: '</tool_call>' },
    { open: '<tool_calls>', close: '</tool_calls>' },
    { open: '<function_calls>', close: '</function_calls>' },
    { open: '<function=', close: '</function>' },
    { open: '<invoke', close: '</invoke>' },
    { open: '<function_call>', close: jsonAfter },
    { open: '[TOOL_CALLS]', close: jsonAfter },
    { open: '{', close: { balanced: 'json', includeOpen: true } },
    { open: '[', close: { balanced: 'python', includeOpen: true }, atStartOnly: true },
    { open: '<|python_tag|>', close: null },
  ],
  betweenCalls: ' \t\r\n;',
  parseRegion: parseGenericRegion,
};
