// The parse shared by formats whose call regions hold JSON call objects (hermes, granite,
// minimax, xlam, llama3_json): every top-level JSON value in the body, repaired when broken.

import { callsFromJsonValue, repairedNotice } from './call-shapes.js';
import { repairJson } from './json-repair.js';
import type { RegionParse } from './types.js';

export interface JsonRegionOptions {
  argumentsOptional: boolean;
  /** Strip a ```json fence around the body. */
  fenced?: boolean;
}

export function parseJsonCallsRegion(body: string, parserId: string, options: JsonRegionOptions): RegionParse {
  let text = body.trim();
  if (options.fenced) text = text.replace(/^```(?:json)?\s*/, '').replace(/\s*```\s*$/, '');
  const out: RegionParse = { calls: [], errors: [] };
  if (!text) return out;
  const value = repairJson(text);
  if (!value) {
    out.errors.push({ code: 'unrepairable_json', message: `${parserId}: a call region is not JSON and could not be repaired: ${text.length > 60 ? `${text.slice(0, 57)}...` : text}` });
    return out;
  }
  const parsed = callsFromJsonValue(value.value, parserId, { argumentsOptional: options.argumentsOptional });
  out.calls.push(...parsed.calls);
  out.errors.push(...parsed.errors);
  if (value.repaired) for (const call of parsed.calls) out.errors.push(repairedNotice(call.name, parserId));
  return out;
}
