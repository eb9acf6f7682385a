// Secret redaction for every output that is not exact evidence (decisions.md): API keys, bearer
// tokens, private keys, passwords in URLs. Patterns are linear (no nested quantifiers).

const RULES: { name: string; re: RegExp; replace: string | ((m: string, ...g: string[]) => string) }[] = [
  {
    name: 'private_key',
    re: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
    replace: '[REDACTED:private_key]',
  },
  { name: 'anthropic_key', re: /\bsk-ant-[A-Za-z0-9_-]{8,}/g, replace: '[REDACTED:api_key]' },
  { name: 'openai_key', re: /\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_-]{16,}/g, replace: '[REDACTED:api_key]' },
  { name: 'github_token', re: /\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}/g, replace: '[REDACTED:token]' },
  { name: 'aws_access_key', re: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, replace: '[REDACTED:aws_key]' },
  { name: 'slack_token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, replace: '[REDACTED:token]' },
  { name: 'bearer', re: /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{16,}/gi, replace: (_m, b) => `${b} [REDACTED:token]` },
  {
    name: 'url_password',
    re: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+):([^\s@/]+)@/gi,
    replace: (_m, user) => `${user}:[REDACTED]@`,
  },
  {
    name: 'assignment',
    re: /\b((?:api[_-]?key|secret|password|passwd|access[_-]?token|auth[_-]?token)["']?\s*[:=]\s*["']?)([^\s"',;]{8,})/gi,
    replace: (_m, prefix) => `${prefix}[REDACTED]`,
  },
];

/**
 * Replace secrets in `text` with `[REDACTED:…]` markers.
 *
 * @example redactText('key sk-ant-abcdefghijklmnop') // 'key [REDACTED:api_key]'
 */
export function redactText(text: string): string {
  let out = text;
  for (const rule of RULES) out = out.replace(rule.re, rule.replace as (m: string, ...g: string[]) => string);
  return out;
}

/** Redact every string inside a JSON-like value (a copy; the input is not changed). */
export function redactValue<T>(value: T): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v);
    return out as T;
  }
  return value;
}
