// Secret redaction for every output that is not exact evidence (decisions.md). The rules are
// secretlint's recommended preset, an npm dependency kept up to date by its maintainers
// (preset-secrets.ts runs it through secretlint-host.ts), plus a few of Hindsight's own for what the
// preset does not look for: Stripe and Google API keys, `sk-…` keys of other shapes, `Bearer`
// headers, JWTs, passwords in any URL, `DB_PASSWORD=` style assignments, private-key blocks the
// preset's shape check lets pass. docs/redaction.md lists what is covered.
//
// Speed: one pass of a keyword automaton (keyword-scan.ts) over the text picks the rules, of the
// preset and our own, whose keywords occur; only those run. The preset itself is loaded only once
// a text may hold one of its secrets (loadRules). Spans are collected on the original
// text, overlapping ones merged, and the output built once.

import { mapJson } from './json-depth.js';
import { KeywordScanner } from './keyword-scan.js';
import { PresetSecrets, presetGate, type PresetGate } from './preset-secrets.js';

interface OwnRule {
  /** Shown in the marker: `[REDACTED:<kind>]`, or `[REDACTED]` when null (the name before stays). */
  kind: string | null;
  re: RegExp;
  /** Lowercase literals of which one occurs in every match (the keyword scan's filter). */
  keywords: string[];
  /** The capture group holding the secret; default: the whole match. */
  group?: number;
}

// A value that names another value instead of holding one: `${VAR}`, `$VAR`, `{{var}}`, `%VAR%`.
const PLACEHOLDER = /^(?:\$\{[^}]*\}?|\$[A-Za-z_]\w*|\{\{[^}]*\}?\}?|%[A-Za-z_]\w*%|<[^>]*>?)/;

const OWN_RULES: OwnRule[] = [
  // Any PEM private-key block, also encrypted, truncated or short ones (the preset reports only a
  // body that looks like a real key). The body is bounded (16 KiB, several times an RSA-4096 key)
  // and cannot run past a `-----`, so a text full of unterminated headers costs one pass.
  {
    kind: 'privatekey',
    re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[^-]|-(?!----)){0,16384}(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)?/dg,
    keywords: ['private key'],
  },
  { kind: 'stripe', re: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}/dg, keywords: ['sk_live_', 'rk_live_', 'sk_test_', 'rk_test_'] },
  { kind: 'google-api-key', re: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/dg, keywords: ['aiza'] },
  // Keys of `sk-…` shapes the preset's exact formats do not take (short Anthropic keys, other
  // providers' `sk-` keys).
  { kind: 'api_key', re: /\bsk-ant-[A-Za-z0-9_-]{8,}/dg, keywords: ['sk-ant-'] },
  { kind: 'api_key', re: /\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_-]{16,}/dg, keywords: ['sk-'] },
  { kind: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/dg, keywords: ['eyj'] },
  { kind: 'bearer', re: /\bBearer\s+([A-Za-z0-9._~+/=-]{16,})/dgi, keywords: ['bearer'], group: 1 },
  // A URL's password, whatever the scheme (redis://, amqp://, https:// with any characters). The
  // scheme is bounded so a long dotted word before a `://` is not re-read from each of its dots.
  { kind: null, re: /\b[a-z][a-z0-9+.-]{0,31}:\/\/[^\s:/@"'\\]*:([^\s@/"'\\]+)@/dgi, keywords: ['://'], group: 1 },
  // NAME=value / "name": "value" where the name ends in a secret word. No `\b` before the word:
  // in DB_PASSWORD the `_` is a word character, so `\bpassword` never matched there. `_pwd` needs
  // its underscore so the shell's PWD=/home/… (a directory) stays. `\"` is a quote inside a JSON
  // string that holds JSON.
  {
    kind: null,
    re: /(?:api[_-]?key|access[_-]?key|secret(?:[_-]?key)?|passw(?:or)?d|_pwd|access[_-]?token|auth[_-]?token|private[_-]?key)(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?([^\s"'\\,;]{8,})/dgi,
    keywords: ['key', 'secret', 'passw', 'pwd', 'token'],
    group: 1,
  },
];

interface Span {
  start: number;
  end: number;
  /** Preset rules first, in the preset's order, then our own: the lowest names a merged span. */
  rank: number;
  kind: string | null;
}

interface Rules {
  /** Null until a text may hold a secret of the preset (see loadRules). */
  preset: PresetSecrets | null;
  /** Before the preset is loaded: what tells whether a text needs it. */
  gate: PresetGate | null;
  /**
   * Rules 0 … ownBase-1 are the preset's (its rules once it is loaded, else the gate's);
   * rule ownBase + i is OWN_RULES[i].
   */
  scanner: KeywordScanner;
  ownBase: number;
}

const OWN_KEYWORDS = OWN_RULES.map((r) => r.keywords);

// Built on first use, not at import, and in two steps, because the preset costs start-up time
// (~10–20 ms to evaluate it, a few more to build the automaton with its keywords) while most texts
// a command prints (titles, paths, counts, plain URLs) could not hold any of its secrets:
// - first our own rules plus the preset's gate (presetGate: its keywords and shapes as a static
//   table, no preset loaded);
// - the first text the gate lets through loads the preset and swaps in the scanner with its rules.
//   No text before it could hold a preset secret, so every answer is the one the preset loaded
//   from the start would give.
// When there is no gate (an installed preset other than the version the table was checked for)
// the preset is loaded on the first text.
let rules: Rules | undefined;

function rulesWithPreset(): Rules {
  const preset = new PresetSecrets();
  return { preset, gate: null, scanner: new KeywordScanner([...preset.keywords(), ...OWN_KEYWORDS]), ownBase: preset.kinds.length };
}

function loadRules(): Rules {
  if (!rules) {
    const gate = presetGate();
    rules = gate
      ? { preset: null, gate, scanner: new KeywordScanner([...gate.keywords, ...OWN_KEYWORDS]), ownBase: gate.keywords.length }
      : rulesWithPreset();
  }
  return rules;
}

/** No secret any rule finds is shorter than this, so shorter strings are returned at once. */
const MIN_SECRET_TEXT = 8;

/** The spans found in `text` by every rule (preset or own) whose keyword occurs in it. */
function secretSpans(text: string): Span[] {
  if (text.length < MIN_SECRET_TEXT) return [];
  let { preset, gate, scanner, ownBase } = loadRules();
  let candidates = scanner.rulesIn(text);
  if (gate !== null) {
    const gateHits = candidates.filter((i) => i < ownBase);
    if (gateHits.length > 0 && gate.needsPreset(text, gateHits)) {
      // From now on the preset runs; this text is scanned again to learn which of its rules apply.
      ({ preset, scanner, ownBase } = rules = rulesWithPreset());
      candidates = scanner.rulesIn(text);
    }
  }
  if (candidates.length === 0) return [];
  // Before the preset is loaded, the candidates below ownBase are gate rules that needed nothing.
  const presetCandidates = candidates.filter((i) => i < ownBase);
  const spans: Span[] = preset !== null && presetCandidates.length > 0 ? preset.spans(text, presetCandidates) : [];
  for (const index of candidates) {
    if (index < ownBase) continue;
    const rule = OWN_RULES[index - ownBase]!;
    const re = rule.re;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const span = m.indices![rule.group ?? 0];
      if (!span || span[1] <= span[0] || PLACEHOLDER.test(text.slice(span[0], span[1]))) continue;
      spans.push({ start: span[0], end: span[1], rank: index, kind: rule.kind });
    }
  }
  return spans;
}

/**
 * Replace secrets in `text` with `[REDACTED:<kind>]` markers (`[REDACTED]` after a name such as
 * `password=` or in a URL's password). The kind is the secretlint rule id (`aws`, `github`, `npm`,
 * `privatekey`…) or one of Hindsight's own: stripe, google-api-key, api_key, jwt, bearer.
 *
 * @example redactText('key sk-ant-abcdefghijklmnop') // 'key [REDACTED:api_key]'
 */
export function redactText(text: string): string {
  const spans = secretSpans(text);
  return spans.length === 0 ? text : applySpans(text, spans);
}

/** Overlapping secrets become one marker, named by the earliest rule among them. */
function applySpans(text: string, spans: Span[]): string {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  for (let i = 0; i < spans.length; ) {
    let { end } = spans[i]!;
    const start = spans[i]!.start;
    let first = spans[i]!;
    for (i++; i < spans.length && spans[i]!.start < end; i++) {
      end = Math.max(end, spans[i]!.end);
      if (spans[i]!.rank < first.rank) first = spans[i]!;
    }
    out += text.slice(at, start) + (first.kind === null ? '[REDACTED]' : `[REDACTED:${first.kind}]`);
    at = end;
  }
  return out + text.slice(at);
}

/**
 * Redact every string inside a JSON-like value (a copy; the input is not changed). Any depth:
 * the walk keeps its own stack, and containers deeper than MAX_JSON_DEPTH become a marker.
 */
export function redactValue<T>(value: T): T {
  return mapJson(value, redactText) as T;
}
