import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from '../../test/helpers.js';
import { KeywordScanner } from './keyword-scan.js';
import { KEYWORDS_CHECKED_FOR, PresetSecrets, type PresetSpan } from './preset-secrets.js';
import { redactText, redactValue } from './redact.js';

// Secrets are generated (a fixed-seed generator), so no real-looking key is written in the repo.
let seed = 7;
function rand(alphabet: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    // xorshift32: uniform enough that generated keys have a key's entropy.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    s += alphabet[(seed >>> 0) % alphabet.length];
  }
  return s;
}
const HEX = '0123456789abcdef';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LOWER_NUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const B64 = `${ALNUM}+/`;
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** [what, a text holding the secret, the secret, the marker kind expected ('' when any kind will do)]. */
type SecretCase = [string, string, string, string];
const inProse = (what: string, before: string, secret: string, kind: string, after = ''): SecretCase => [what, `${before}${secret}${after}`, secret, kind];

// A 1Password service-account token is `ops_` + base64 of a JSON object; a 109-character object
// encodes to a string ending in `fQ==`, as the rule requires.
const opsToken = `ops_${Buffer.from(JSON.stringify({ email: 'svc@example.test', secretKey: rand(ALNUM, 102) })).toString('base64')}`;
const pemBody = `MII${rand(B64, 240)}`;

const SECRETS: SecretCase[] = [
  // secretlint's recommended preset
  inProse('AWS access key id', 'id ', `AKIA${rand(BASE32, 16)}`, 'aws'),
  inProse('AWS secret access key (env)', 'AWS_SECRET_ACCESS_KEY=', `${rand(B64, 39)}${rand(ALNUM, 1)}`, 'aws'),
  inProse('AWS secret access key (ini)', 'aws_secret_access_key = ', `${rand(B64, 39)}${rand(ALNUM, 1)}`, 'aws'),
  inProse('npm token', 'npm ', `npm_${rand(ALNUM, 36)}`, 'npm'),
  inProse('GitHub classic PAT', 'gh ', `ghp_${rand(ALNUM, 36)}`, 'github'),
  inProse('GitHub OAuth token', 'gh ', `gho_${rand(ALNUM, 36)}`, 'github'),
  inProse('GitHub app token', 'gh ', `ghs_${rand(ALNUM, 36)}`, 'github'),
  inProse('GitHub fine-grained PAT', 'gh ', `github_pat_${rand(ALNUM, 82)}`, 'github'),
  // (the basicauth rule also takes the fixed word x-oauth-basic for a password: any marker will do)
  inProse('GitHub token in an x-oauth-basic URL', 'git clone https://', rand(HEX, 40), '', ':x-oauth-basic@github.com/org/repo.git'),
  inProse('GitLab PAT', 'gitlab ', `glpat-${rand(ALNUM, 20)}`, 'gitlab'),
  inProse('Slack bot token', 'slack ', `xoxb-${rand('0123456789', 12)}-${rand('0123456789', 12)}-${rand(ALNUM, 24)}`, 'slack'),
  inProse('Slack incoming webhook', 'POST ', `https://hooks.slack.com/services/T${rand(ALNUM, 10)}/B${rand(ALNUM, 10)}/${rand(ALNUM, 24)}`, 'slack'),
  inProse('SendGrid key', 'sg ', `SG.${rand(ALNUM, 22)}.${rand(ALNUM, 43)}`, 'sendgrid'),
  inProse('Shopify token', 'shop ', `shpat_${rand(ALNUM, 32)}`, 'shopify'),
  inProse('OpenAI project key', 'openai ', `sk-proj-${rand(ALNUM, 58)}T3BlbkFJ${rand(ALNUM, 58)}`, 'openai'),
  inProse('Anthropic key', 'claude ', `sk-ant-api03-${rand(ALNUM, 93)}AA`, 'anthropic'),
  inProse('Groq key', 'groq ', `gsk_${rand(ALNUM, 52)}`, 'groq'),
  inProse('Hugging Face token', 'hf ', `hf_${rand(LETTERS, 34)}`, 'huggingface'),
  inProse('Linear key', 'linear ', `lin_api_${rand(ALNUM, 40)}`, 'linear'),
  inProse('Notion token', 'notion ', `ntn_${rand('0123456789', 11)}${rand(ALNUM, 35)}`, 'notion'),
  inProse('private key', '', `-----BEGIN RSA PRIVATE KEY-----\n${pemBody}\n-----END RSA PRIVATE KEY-----`, 'privatekey'),
  inProse('basic-auth URL password', 'curl https://deploy:', rand(ALNUM, 16), 'basicauth', '@example.net/hook'),
  inProse('PostgreSQL URL password', 'postgres://app:', rand(ALNUM, 16), 'database-connection-string', '@db.internal:5432/app'),
  inProse('MySQL URL password', 'mysql://app:', rand(ALNUM, 16), 'database-connection-string', '@db.internal:3306/app'),
  inProse('MongoDB URL password', 'mongodb+srv://app:', rand(ALNUM, 16), 'database-connection-string', '@cluster0.example.net/app'),
  inProse('1Password service-account token', 'op ', opsToken, '1password'),
  inProse('Vault service token', 'vault ', `hvs.${rand(ALNUM, 95)}`, 'hashicorp-vault'),
  inProse('Vault batch token', 'vault ', `hvb.${rand(ALNUM, 150)}`, 'hashicorp-vault'),
  inProse('Vercel token', 'vercel ', `vcp_${rand(ALNUM, 40)}`, 'vercel'),
  inProse('Databricks token', 'dbx ', `dapi${rand(HEX, 32)}`, 'databricks'),
  inProse('Docker PAT', 'docker ', `dckr_pat_${rand(ALNUM, 27)}`, 'docker'),
  inProse('Figma token', 'figma ', `figd_${rand(ALNUM, 50)}`, 'figma'),
  inProse('Grafana Cloud token', 'grafana ', `glc_eyJ${rand(ALNUM, 60)}`, 'grafana'),
  inProse('Grafana service account token', 'grafana ', `glsa_${rand(ALNUM, 32)}_${rand(HEX, 8)}`, 'grafana'),
  // Hindsight's own rules
  inProse('Stripe live key', 'stripe ', `sk_live_${rand(ALNUM, 24)}`, 'stripe'),
  inProse('Stripe restricted key', 'stripe ', `rk_live_${rand(ALNUM, 24)}`, 'stripe'),
  inProse('Google API key', 'key ', `AIza${rand(ALNUM, 35)}`, 'google-api-key'),
  inProse('short Anthropic-style key', 'my key ', `sk-ant-${rand(ALNUM, 20)}`, 'api_key'),
  inProse('other sk- key', 'deepseek ', `sk-${rand(HEX, 32)}`, 'api_key'),
  inProse('JWT', 'jwt ', `eyJ${rand(ALNUM, 30)}.eyJ${rand(ALNUM, 40)}.${rand(ALNUM, 43)}`, 'jwt'),
  inProse('Bearer header', 'Authorization: Bearer ', rand(ALNUM, 40), 'bearer'),
  inProse('short private key', '', `-----BEGIN PRIVATE KEY-----\n${rand(B64, 64)}\n-----END PRIVATE KEY-----`, 'privatekey'),
  // (a key cut off in a log has no END line: the rest of the text goes with it, so any marker)
  inProse('truncated private key', '', `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE${rand(B64, 80)}`, ''),
  inProse('encrypted private key', '', `-----BEGIN ENCRYPTED PRIVATE KEY-----\n${pemBody}\n-----END ENCRYPTED PRIVATE KEY-----`, 'privatekey'),
  inProse('DB_PASSWORD assignment', 'export DB_PASSWORD=', rand(ALNUM, 14), 'REDACTED'),
  inProse('MYSQL_PWD assignment', 'MYSQL_PWD=', rand(ALNUM, 12), 'REDACTED'),
  inProse('JSON password field', '{"password": "', rand(ALNUM, 16), 'REDACTED', '"}'),
  inProse('Redis URL password', 'redis://:', `${rand(ALNUM, 12)}!x`, 'REDACTED', '@cache:6379'),
  inProse('AMQP URL password', 'amqp://worker:', rand(ALNUM, 16), 'REDACTED', '@mq.internal:5672'),
];

/** Must come out exactly as they went in. */
const LOOK_ALIKES: string[] = [
  `commit ${rand(HEX, 40)}`,
  `short sha ${rand(HEX, 7)} fixed it`,
  `"previous_hash": "${rand(HEX, 64)}"`,
  `{"hash": "${rand(HEX, 64)}", "previous_hash": "${rand(HEX, 64)}"}`,
  `"entry_hash":"${rand(HEX, 64)}"`,
  `sha256:${rand(HEX, 64)}`,
  `session 0f3c2a1e-9b7d-4c6e-8a5f-1d2e3f4a5b6c resumed`,
  `"sessionId":"55604662-cf2a-4331-851a-ec234028f8ca"`,
  `"uuid": "d6e0bada-1959-4eec-a9d2-0bfade768d8f"`,
  `data:image/png;base64,${rand(B64, 400)}==`,
  'edit src/components/password_reset_form.tsx',
  'the password_reset_form component renders twice',
  'PWD=/home/marco/projects/spotter',
  'OLDPWD=/home/marco',
  '"input_tokens": 1234567, "output_tokens": 89012, "cache_read_input_tokens": 456789',
  '"max_tokens": 32000',
  'const token = createToken(user);',
  'if (!apiKey) throw new Error("missing api key");',
  'password: ${DB_PASSWORD}',
  'api_key = $OPENAI_API_KEY',
  '"scope_key": "SES-ED5425F5/WO-SES-ED5425F5-012/admin-001.ho1m"',
  '"tool_use_id": "toolu_01XyZabcDEF123ghiJKL456mn"',
  '"requestId": "req_011CVabcdefGHIJKLmnopqrs"',
  '"message": {"id": "msg_01ABCdefGHIjklMNOpqrSTU"}',
  'WO-SES-8ACD6A79-012 completed',
  'LED-00000042',
  'see https://example.com/docs/api/keys for details',
  'git clone https://github.com/secretlint/secretlint.git',
  '"aws_account_id": "123456789012"',
  'the AWS docs key AKIAIOSFODNN7EXAMPLE',
  'postgres://localhost:5432/app',
  'mongodb://${MONGO_USER}:${MONGO_PASSWORD}@mongo:27017/app',
  'ghp_ is the prefix of a GitHub token',
  'http://localhost:8080/api/health',
  'see secretlint-disable in the docs',
  'the word secretary and the word passwordless',
  'tokenizer.encode(text) returns 512 tokens',
  'Bearer tokens are sent in the Authorization header',
  'npm install --save-dev typescript',
  '2026-02-17T14:30:10.123456Z',
  '"cwd": "/home/marco/projects/spotter-worktrees/spotter-fum"',
  `"signature": "${rand(B64, 200)}"`,
  'x'.repeat(5000),
];

describe("redactText: secretlint's recommended preset plus our own rules", () => {
  it(`redacts ${SECRETS.length} kinds of secret, in prose and in JSON`, () => {
    expect(new Set(SECRETS.map((s) => s[0])).size).toBeGreaterThanOrEqual(30);
    for (const [what, text, secret, kind] of SECRETS) {
      expect(text, what).toContain(secret);
      for (const variant of [`${text} and more`, `${text}, then`, JSON.stringify({ note: text })]) {
        const out = redactText(variant);
        expect(out, `${what} in ${variant}`).not.toContain(secret);
        if (kind === 'REDACTED') expect(out, what).toContain('[REDACTED]');
        else if (kind !== '') expect(out, `${what}: ${out}`).toContain(`[REDACTED:${kind}]`);
        else expect(out, what).toMatch(/\[REDACTED(?::[a-z0-9_-]+)?\]/);
      }
      // Only the secret goes: the text around it stays as it was.
      const marker = kind === 'REDACTED' ? '[REDACTED]' : `[REDACTED:${kind}]`;
      if (kind !== '') expect(redactText(`${text} and more`), what).toBe(`${text.replace(secret, marker)} and more`);
    }
  });

  it(`leaves ${LOOK_ALIKES.length} look-alikes untouched (hashes, ids, base64 data, ordinary words)`, () => {
    expect(LOOK_ALIKES.length).toBeGreaterThanOrEqual(30);
    for (const text of LOOK_ALIKES) expect(redactText(text)).toBe(text);
  });

  it('keeps the text around a secret and names the rule', () => {
    const key = `sk_live_${rand(ALNUM, 24)}`;
    expect(redactText(`pay with ${key}.`)).toBe('pay with [REDACTED:stripe].');
    const token = `ghp_${rand(ALNUM, 36)}`;
    expect(redactText(`(${token})`)).toBe('([REDACTED:github])');
  });

  it("replaces the AWS secret key itself, where secretlint's report starts at the variable's name", () => {
    const key = `${rand(B64, 39)}Q`;
    expect(redactText(`AWS_SECRET_ACCESS_KEY=${key}`)).toBe('AWS_SECRET_ACCESS_KEY=[REDACTED:aws]');
    expect(redactText(`"aws_secret_access_key": "${key}"`)).toBe('"aws_secret_access_key": "[REDACTED:aws]"');
  });

  it('replaces only the password of a URL, keeping user and host readable', () => {
    const pw = rand(ALNUM, 16);
    expect(redactText(`postgres://app:${pw}@db.internal:5432/app`)).toBe('postgres://app:[REDACTED:database-connection-string]@db.internal:5432/app');
    expect(redactText(`see https://deploy:${pw}@example.net/x`)).toBe('see https://deploy:[REDACTED:basicauth]@example.net/x');
  });

  it('a secretlint-disable comment in the text does not switch redaction off', () => {
    const token = `ghp_${rand(ALNUM, 36)}`;
    for (const comment of ['// secretlint-disable', '<!-- secretlint-disable -->', '# secretlint-disable-next-line']) {
      expect(redactText(`${comment}\nconst t = "${token}";\n`)).toBe(`${comment}\nconst t = "[REDACTED:github]";\n`);
      expect(redactText(`const t = "${token}"; // secretlint-disable-line`)).toBe('const t = "[REDACTED:github]"; // secretlint-disable-line');
    }
  });

  it('does not touch a Control Plane ledger line of the fixtures shape', () => {
    const line = JSON.stringify({
      entry_id: 'LED-00000007',
      event_type: 'EXCHANGE',
      previous_hash: rand(HEX, 64),
      hash: rand(HEX, 64),
      metadata: { provenance: { session_id: 'SES-1FA10011', work_order_id: 'WO-SES-1FA10011-002' }, scope_key: 'SES-1FA10011/WO-SES-1FA10011-002/admin-001.ho1m' },
    });
    expect(redactText(line)).toBe(line);
  });

  it('leaves the real Claude Code transcript and Control Plane governance ledger of the fixtures unchanged', () => {
    for (const file of FIXTURE_LEDGERS) {
      const lines = readFileSync(file, 'utf8').split('\n');
      expect(lines.length).toBeGreaterThan(500);
      for (const line of lines) if (redactText(line) !== line) expect.fail(`${file}: ${redactText(line).slice(0, 300)}`);
    }
  });
});

const FIXTURE_LEDGERS = [
  join(FIXTURES, 'claude-code/projects/-home-USER-projects-spotter-worktrees-spotter-fum/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl'),
  join(FIXTURES, 'control-plane/normal/HOT/ledger/governance.jsonl'),
];

describe('the preset and its keyword prefilter', () => {
  const preset = new PresetSecrets();

  it('runs every rule of the installed preset but the comment filter, each with keywords checked for this version', () => {
    // When this fails after an upgrade of @secretlint/secretlint-rule-preset-recommend: read each
    // rule's patterns again, update KEYWORDS in preset-secrets.ts and KEYWORDS_CHECKED_FOR.
    // Until then every preset rule runs on every text, so nothing is missed meanwhile.
    expect(preset.version).toBe(KEYWORDS_CHECKED_FOR);
    expect(preset.kinds).not.toContain('filter-comments');
    expect(preset.kinds.length).toBeGreaterThanOrEqual(24);
    for (const [i, keywords] of preset.keywords().entries()) expect(keywords.length, preset.kinds[i]).toBeGreaterThan(0);
  });

  it('finds the same secrets with the prefilter as without it, on every test text and fixture line', () => {
    const scanner = new KeywordScanner(preset.keywords());
    const texts = [
      ...SECRETS.flatMap(([, text]) => [text, JSON.stringify({ note: text })]),
      ...LOOK_ALIKES,
      ...FIXTURE_LEDGERS.flatMap((f) => readFileSync(f, 'utf8').split('\n')),
    ];
    let found = 0;
    for (const text of texts) {
      const byPlace = (spans: PresetSpan[]) => spans.sort((a, b) => a.start - b.start || a.rank - b.rank);
      const all = byPlace(preset.spans(text));
      found += all.length;
      expect(byPlace(preset.spans(text, scanner.rulesIn(text))), text.slice(0, 200)).toEqual(all);
    }
    expect(found).toBeGreaterThanOrEqual(SECRETS.length - 15);
  });
});

describe('redactValue', () => {
  it('redacts strings at any position and leaves the input alone', () => {
    const key = `ghp_${rand(ALNUM, 36)}`;
    const input = { a: [1, { b: `token ${key}` }], c: null, d: true };
    const out = redactValue(input);
    expect(out).toEqual({ a: [1, { b: 'token [REDACTED:github]' }], c: null, d: true });
    expect(input.a[1]).toEqual({ b: `token ${key}` });
  });

  it('walks 100,000 levels without overflowing the stack and cuts below 1,000 with a marker', () => {
    const depth = 100_000;
    const value = JSON.parse('{"a":'.repeat(depth) + '"x"' + '}'.repeat(depth));
    const out = redactValue(value);
    expect(() => JSON.stringify(out)).not.toThrow();
    let node: unknown = out;
    let levels = 0;
    while (typeof node === 'object' && node !== null) {
      node = (node as { a: unknown }).a;
      levels++;
    }
    expect(levels).toBe(1_000);
    expect(node).toMatch(/^…\[cut: nested 100,000 levels deep, deeper than 1,000/);
  });

  it('keeps an own "__proto__" key as data', () => {
    const out = redactValue(JSON.parse('{"__proto__": {"x": 1}, "y": 2}')) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['__proto__', 'y']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});
