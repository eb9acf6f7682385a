// secretlint's recommended preset (@secretlint/secretlint-rule-preset-recommend, MIT) as a source
// of secret spans for redaction: which of its rules run, with which options, the keywords that let
// a rule be skipped on a text that cannot hold its secret, and how a report becomes the span to
// replace. The rules themselves run unchanged in secretlint-host.ts.

import { createRequire } from 'node:module';
import { SecretlintHost, type Finding, type SecretlintPreset } from './secretlint-host.js';

const PRESET = '@secretlint/secretlint-rule-preset-recommend';
const RULE_PREFIX = '@secretlint/secretlint-rule-';

/** The preset version whose rules KEYWORDS and SHAPES were checked against (by reading each rule's regexes). */
export const KEYWORDS_CHECKED_FOR = '12.0.0';

/**
 * For each rule, literals of which at least one occurs (ASCII case aside) in every text the rule
 * reports on: each is a fixed part of every pattern the rule matches with, read from the rule's
 * source. A rule is run on a text only when one of its keywords is in it. A rule missing here (a
 * new one after an upgrade) runs on every text, and so do all rules when the installed version is
 * not KEYWORDS_CHECKED_FOR.
 */
const KEYWORDS: Record<string, string[]> = {
  // Access key ids (AKIA…, ASIA…, …), `…SECRET…ACCESS…KEY = <40>`, `…ACCOUNT…ID = …`.
  aws: ['a3t', 'akia', 'agpa', 'aida', 'aroa', 'aipa', 'anpa', 'anva', 'asia', 'secret', 'account'],
  // Reports only on files named *.p12 / *.json; a text has no file name (see the host).
  gcp: ['private_key'],
  npm: ['npm_', 'x-oauth-basic', '_authtoken='],
  slack: ['xoxb-', 'xoxp-', 'xapp-', 'xoxa-', 'xoxo-', 'xoxr-', 'hooks.slack.com/services/'],
  // Any URL holds `://`, so the gate also asks for SHAPES.basicauth before it loads the preset.
  basicauth: ['://'],
  // Both of its patterns contain the literal T3BlbkFJ.
  openai: ['t3blbkfj'],
  anthropic: ['sk-ant-api0'],
  groq: ['gsk_'],
  huggingface: ['hf_'],
  linear: ['lin_api_'],
  notion: ['ntn_'],
  privatekey: ['private key'],
  sendgrid: ['sg.'],
  shopify: ['shppa_', 'shpca_', 'shpat_', 'shpss_'],
  github: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
  gitlab: ['glpat-'],
  grafana: ['glc_', 'glsa_'],
  '1password': ['ops_'],
  // Each of its patterns starts mongodb(+srv)://, (jdbc:)mysql(x):// or postgres(ql)://.
  'database-connection-string': ['mongodb://', 'mongodb+srv://', 'mysql://', 'mysqlx://', 'postgres://', 'postgresql://'],
  'hashicorp-vault': ['hvs.', 'hvb.', 'hvr.'],
  vercel: ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'],
  databricks: ['dapi'],
  docker: ['dckr_pat_'],
  figma: ['figd_'],
};

/**
 * For a rule whose keyword is common in ordinary text, a pattern that every text the rule reports
 * on matches (its own pattern loosened, read from the rule's source like KEYWORDS). The gate
 * (presetGate) loads the preset for a text in which only such a rule's keyword occurs only when
 * this pattern matches too: a URL without credentials does not load it.
 */
const SHAPES: Record<string, RegExp> = {
  // The rule: (https?|ftps?)://USER:PASSWORD@HOST.TLD, USER and PASSWORD of [-a-zA-Z0-9_].
  basicauth: /:\/\/[-a-zA-Z0-9_]+:[-a-zA-Z0-9_]+@/,
};

/**
 * Rules that are not run. filter-comments reports nothing: it asks the engine to drop other rules'
 * reports inside `secretlint-disable` … `secretlint-enable` comments. In evidence written by an
 * agent or a user, such a comment must not switch redaction off.
 */
const SKIPPED = new Set([`${RULE_PREFIX}filter-comments`]);

/** Options over the preset's defaults, as a `.secretlintrc` would give them. */
const OPTIONS: Record<string, Record<string, unknown>> = {
  // Off by default in secretlint (ids are not secrets); an access key id (AKIA…) is one half of a
  // credential pair and names the account, so it is redacted. Account ids the rule then also
  // reports are dropped below.
  [`${RULE_PREFIX}aws`]: { enableIDScanRule: true },
};

/** Reports that are not secrets to replace: `rule id/message id`. */
const NOT_SECRETS = new Set([
  // `AWS_ACCOUNT_ID = 1234-5678-9012`: an account number identifies, it does not authenticate.
  'aws/AWSAccountID',
]);

/** Rules that report a whole URL whose secret is only the password in `scheme://user:password@`. */
const URL_CREDENTIAL_RULES = new Set(['basicauth', 'database-connection-string']);
const URL_PASSWORD = /\/\/[^:/\s]*:([^@/\s]+)@/d;

/** How far after a report's start a mis-placed value is looked for (see secretSpan). */
const RELOCATE_WINDOW = 512;

export interface PresetSpan {
  start: number;
  end: number;
  /** Short rule id: `aws`, `github`, `npm`… (the marker kind). */
  kind: string;
  /** The rule's position in the preset (earlier rules name merged spans). */
  rank: number;
}

interface PresetModule {
  creator: SecretlintPreset;
}
interface PresetPackage {
  version: string;
}

const require = createRequire(import.meta.url);

/** The installed preset's version, read from its package.json (cheap: the preset is not evaluated). */
function installedVersion(): string {
  return (require(`${PRESET}/package.json`) as PresetPackage).version;
}

/**
 * What can be told about a text without loading the preset: whether any of its rules could report
 * on it. Built from KEYWORDS and SHAPES alone, so it is exact only for the version they were
 * checked against, where every rule has keywords (redact.test.ts holds that).
 */
export interface PresetGate {
  /** Keywords of each gate rule (one per preset rule), for the caller's keyword scan. */
  readonly keywords: string[][];
  /** Whether `text`, in which the gate rules `hits` found keywords, may hold a preset secret. */
  needsPreset(text: string, hits: readonly number[]): boolean;
}

/**
 * The gate for the installed preset, or null when KEYWORDS was not checked for its version (then
 * every text needs the preset).
 *
 * @example const gate = presetGate(); // gate?.needsPreset(text, hits) === false: no preset secret in text
 */
export function presetGate(): PresetGate | null {
  if (installedVersion() !== KEYWORDS_CHECKED_FOR) return null;
  const kinds = Object.keys(KEYWORDS);
  return {
    keywords: kinds.map((kind) => KEYWORDS[kind]!),
    needsPreset: (text, hits) => hits.some((i) => SHAPES[kinds[i]!]?.test(text) ?? true),
  };
}

// Node 20.19 and later load an ES module with require(), so the preset (~220 KB, ~10–20 ms to
// evaluate) loads on the first redaction that needs it (redact.ts), not at start-up of every
// command that imports a tool. Older versions load it here, at import.
const preloaded: PresetModule | undefined = process.features.require_module ? undefined : ((await import(PRESET)) as PresetModule);

export class PresetSecrets {
  readonly version: string;
  private readonly host: SecretlintHost;
  /** Short id of each running rule, by its index in the host. */
  readonly kinds: string[];
  private readonly rankOf: Map<string, number>;

  constructor() {
    const mod = preloaded ?? (require(PRESET) as PresetModule);
    this.version = installedVersion();
    this.host = new SecretlintHost(mod.creator, { skip: SKIPPED, options: OPTIONS });
    this.kinds = this.host.ruleIds.map((id) => (id.startsWith(RULE_PREFIX) ? id.slice(RULE_PREFIX.length) : id));
    this.rankOf = new Map(this.host.ruleIds.map((id, i) => [id, i]));
  }

  /** Keywords per running rule (empty: run on every text), for the caller's keyword scan. */
  keywords(): string[][] {
    const trusted = this.version === KEYWORDS_CHECKED_FOR;
    return this.kinds.map((kind) => (trusted ? (KEYWORDS[kind] ?? []) : []));
  }

  /** The secret spans the rules at `ruleIndexes` find in `text`. */
  spans(text: string, ruleIndexes?: readonly number[]): PresetSpan[] {
    const out: PresetSpan[] = [];
    for (const finding of this.host.run(text, ruleIndexes)) {
      const rank = this.rankOf.get(finding.ruleId)!;
      const kind = this.kinds[rank]!;
      if (NOT_SECRETS.has(`${kind}/${finding.messageId}`)) continue;
      const [start, end] = secretSpan(text, finding, kind);
      if (end > start) out.push({ start, end, kind, rank });
    }
    return out;
  }
}

/** Every string a rule put in its message, the longest first. */
function reportedValues(finding: Finding): string[] {
  return Object.values(finding.data)
    .filter((v): v is string => typeof v === 'string' && v.length > 0)
    .sort((a, b) => b.length - a.length);
}

/**
 * The span of the secret in a report. Usually the report's range. Two corrections:
 * - a rule may give the range of the whole match but the length of a captured part (the AWS secret
 *   key after `AWS_SECRET_ACCESS_KEY=`, the token in an `x-oauth-basic` URL): when the text at the
 *   range is not the value the message names, the value is looked for from the range's start;
 * - for a URL with credentials, only the password is the secret: `postgres://app:…@db` keeps its
 *   user and host readable.
 */
function secretSpan(text: string, finding: Finding, kind: string): [number, number] {
  let [start, end] = finding.range;
  const atRange = text.slice(start, end);
  const values = reportedValues(finding);
  if (values.length > 0 && !values.includes(atRange)) {
    const window = text.slice(start, end + RELOCATE_WINDOW);
    for (const value of values) {
      const at = window.indexOf(value);
      if (at !== -1) {
        start += at;
        end = start + value.length;
        break;
      }
    }
  }
  if (URL_CREDENTIAL_RULES.has(kind)) {
    const password = URL_PASSWORD.exec(text.slice(start, end))?.indices?.[1];
    if (password) return [start + password[0], start + password[1]];
  }
  return [start, end];
}
