// The price table shipped with Hindsight, and how a logged model id finds its row.
//
// Prices are pinned here and never fetched at run time: a report must be reproducible offline and
// must not change because a web page did. Update the table (and PRICES_AS_OF) by hand, from the
// sources below; a model missing here is reported as unpriced, never costed at $0.

import { LONG_CONTEXT_THRESHOLD, type ModelPrice } from './price-types.js';
import { GOOGLE_PRICES } from './prices-google.js';
import { OPENAI_PRICES } from './prices-openai.js';

export const PRICES_AS_OF = '2026-11-22';
export const PRICE_SOURCES = [
  'https://platform.claude.com/docs/en/about-claude/pricing (model pricing, prompt caching, long context pricing)',
  'https://ai.google.dev/gemini-api/docs/pricing (Gemini 3 Flash preview, Gemini 3.1 Pro preview)',
  'https://openai.com/api/pricing (GPT-5 family)',
];

export { LONG_CONTEXT_THRESHOLD, type ModelPrice, type Rates } from './price-types.js';

const SONNET_LONG = { threshold: LONG_CONTEXT_THRESHOLD, input: 6, output: 22.5, cacheWrite5m: 7.5, cacheWrite1h: 12, cacheRead: 0.6 };
const OPUS_46_LONG = { threshold: LONG_CONTEXT_THRESHOLD, input: 10, output: 37.5, cacheWrite5m: 12.5, cacheWrite1h: 20, cacheRead: 1 };
const OPUS_NEW = { input: 5, output: 25, cacheWrite5m: 6.25, cacheWrite1h: 10, cacheRead: 0.5 };
const OPUS_OLD = { input: 15, output: 75, cacheWrite5m: 18.75, cacheWrite1h: 30, cacheRead: 1.5 };
const SONNET = { input: 3, output: 15, cacheWrite5m: 3.75, cacheWrite1h: 6, cacheRead: 0.3 };

export const PRICE_TABLE: readonly ModelPrice[] = [
  // Anthropic. Opus 4.5 and later cost a third of Opus 4/4.1.
  { model: 'claude-opus-5', provider: 'anthropic', ...OPUS_NEW },
  { model: 'claude-opus-4-8', provider: 'anthropic', ...OPUS_NEW },
  { model: 'claude-opus-4-7', provider: 'anthropic', ...OPUS_NEW },
  { model: 'claude-opus-4-6', provider: 'anthropic', ...OPUS_NEW, longContext: OPUS_46_LONG },
  { model: 'claude-opus-4-5', provider: 'anthropic', ...OPUS_NEW },
  { model: 'claude-opus-4-1', provider: 'anthropic', ...OPUS_OLD },
  { model: 'claude-opus-4', provider: 'anthropic', ...OPUS_OLD, aliases: ['claude-opus-4-0'] },
  { model: 'claude-3-opus', provider: 'anthropic', ...OPUS_OLD, aliases: ['claude-opus-3'] },
  { model: 'claude-sonnet-5', provider: 'anthropic', input: 2, output: 10, cacheWrite5m: 2.5, cacheWrite1h: 4, cacheRead: 0.2 },
  { model: 'claude-sonnet-4-6', provider: 'anthropic', ...SONNET, longContext: SONNET_LONG },
  { model: 'claude-sonnet-4-5', provider: 'anthropic', ...SONNET, longContext: SONNET_LONG },
  { model: 'claude-sonnet-4', provider: 'anthropic', ...SONNET, longContext: SONNET_LONG, aliases: ['claude-sonnet-4-0'] },
  { model: 'claude-3-7-sonnet', provider: 'anthropic', ...SONNET, aliases: ['claude-sonnet-3-7'] },
  { model: 'claude-3-5-sonnet', provider: 'anthropic', ...SONNET, aliases: ['claude-sonnet-3-5'] },
  { model: 'claude-haiku-4-5', provider: 'anthropic', input: 1, output: 5, cacheWrite5m: 1.25, cacheWrite1h: 2, cacheRead: 0.1 },
  { model: 'claude-3-5-haiku', provider: 'anthropic', input: 0.8, output: 4, cacheWrite5m: 1, cacheWrite1h: 1.6, cacheRead: 0.08, aliases: ['claude-haiku-3-5'] },
  { model: 'claude-3-haiku', provider: 'anthropic', input: 0.25, output: 1.25, cacheWrite5m: 0.3, cacheWrite1h: 0.5, cacheRead: 0.03, aliases: ['claude-haiku-3'] },
  ...GOOGLE_PRICES,
  ...OPENAI_PRICES,
];

const PREFIXES = [
  /^(?:anthropic|openai|google|gemini|vertex_ai|vertex|bedrock|azure|models)[/:]/,
  /^(?:[a-z]{2,4}\.)?anthropic\./, // Bedrock: anthropic.claude-…, us.anthropic.claude-…, global.anthropic.…
];

/**
 * The id a logged model name is looked up by: lower case, provider prefix, context-window tag
 * (`[1m]`), Bedrock version (`-v1:0`), Vertex `@date`, date suffix (`-20250929`, `-2025-08-07`)
 * and `-latest` removed; Claude version dots become dashes (`claude-3.5-sonnet`).
 */
export function normalizeModelId(model: string): string {
  let id = model.trim().toLowerCase();
  for (let changed = true; changed; ) {
    changed = false;
    for (const p of PREFIXES) {
      const next = id.replace(p, '');
      if (next !== id) {
        id = next;
        changed = true;
      }
    }
  }
  id = id
    .replace(/\[[^\]]*\]$/, '')
    .replace(/-v\d+(?::\d+)?$/, '')
    .replace(/:\d+$/, '')
    .replace(/@\d{8}$/, '')
    .replace(/-(?:\d{8}|\d{4}-\d{2}-\d{2})$/, '')
    .replace(/-latest$/, '');
  if (id.startsWith('claude')) id = id.replace(/(\d)\.(\d)/g, '$1-$2');
  return id;
}

const BY_ID = new Map<string, ModelPrice>();
for (const p of PRICE_TABLE) {
  for (const id of [p.model, ...(p.aliases ?? [])]) BY_ID.set(id, p);
}

/** Every id and alias, longest first: the most specific one a name contains wins. */
const IDS_LONGEST_FIRST = [...BY_ID.keys()].sort((a, b) => b.length - a.length);

/**
 * The row whose id a custom name contains as a whole dash-separated part (`aide-gpt-5` → gpt-5,
 * `my-claude-sonnet-4-5-proxy` → claude-sonnet-4-5), as ccusage 20 matches names it has no exact
 * row for; null when none does. The longest id wins, so `gpt-5-mini-x` is gpt-5-mini, not gpt-5.
 */
function containedPrice(id: string): ModelPrice | null {
  for (const known of IDS_LONGEST_FIRST) {
    const at = id.indexOf(known);
    if (at < 0) continue;
    const before = at === 0 || id[at - 1] === '-' || id[at - 1] === '/';
    const end = at + known.length;
    const after = end === id.length || id[end] === '-';
    if (before && after) return BY_ID.get(known)!;
  }
  return null;
}

/** Lookups by the name as logged: a report prices tens of thousands of calls of a few models. */
const BY_LOGGED_NAME = new Map<string, ModelPrice | null>();

/** The price of a logged model id, or null when the table has none (→ unpriced, never $0). */
export function findPrice(model: string | null | undefined): ModelPrice | null {
  if (!model) return null;
  let price = BY_LOGGED_NAME.get(model);
  if (price === undefined) {
    const id = normalizeModelId(model);
    price = BY_ID.get(id) ?? containedPrice(id);
    if (BY_LOGGED_NAME.size < 10_000) BY_LOGGED_NAME.set(model, price);
  }
  return price;
}
