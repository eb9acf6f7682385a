import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { FIXTURES } from '../../test/helpers.js';
import { KeywordScanner } from './keyword-scan.js';
import { PresetSecrets, presetGate, type PresetGate } from './preset-secrets.js';
import type { redactText as RedactText } from './redact.js';

// Counts how often redaction loads the preset: the gate's whole point is that it does not for
// texts that could not hold a preset secret.
const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('./preset-secrets.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./preset-secrets.js')>();
  class CountedPresetSecrets extends real.PresetSecrets {
    constructor() {
      super();
      loads.count++;
    }
  }
  return { ...real, PresetSecrets: CountedPresetSecrets };
});

// Secrets built from a fixed-seed generator, so no real-looking key is written in the repo.
let seed = 11;
function rand(alphabet: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    s += alphabet[(seed >>> 0) % alphabet.length];
  }
  return s;
}
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_NUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const HEX = '0123456789abcdef';

/** Texts on which preset rules report, one or more per rule family the gate must let through. */
const PRESET_SECRETS = [
  `export AWS_ACCESS_KEY_ID=AKIA${rand(UPPER_NUM, 16)}`,
  `aws_secret_access_key = ${rand(ALNUM, 40)}`,
  `git clone https://deploy:${rand(ALNUM, 12)}@git.acme.io/team/repo.git`,
  `ftp://mirror-user:${rand(ALNUM, 10)}@files.acme.io/pub`,
  `DATABASE_URL=postgres://app:${rand(ALNUM, 14)}@db.internal:5432/app`,
  `mongodb+srv://svc:${rand(ALNUM, 14)}@cluster0.acme.net/data`,
  `jdbc:mysql://root:${rand(ALNUM, 14)}@10.0.0.5/shop`,
  `token ghp_${rand(ALNUM, 36)}`,
  `//registry.npmjs.org/:_authToken=npm_${rand(ALNUM, 36)}`,
  `SLACK=xoxb-${rand('0123456789', 11)}-${rand('0123456789', 12)}-${rand(ALNUM, 24)}`,
  `SG.${rand(ALNUM, 22)}.${rand(ALNUM, 43)}`,
  `glpat-${rand(ALNUM, 20)}`,
  `dapi${rand(HEX, 32)}`,
];

/** Ordinary texts with a gate keyword of a common shape (URLs) but no preset secret. */
const PLAIN_URLS = [
  'see https://example.com/docs/start and http://acme.io:8080/status',
  'the title mentions ftp://files.acme.io/pub/readme.txt once',
  '/handgemacht:create-beads websearch on https://hexdocs.pm/credo for the setup',
];

const FIXTURE_LEDGERS = [
  join(FIXTURES, 'claude-code/projects/-home-USER-projects-spotter-worktrees-spotter-fum/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl'),
  join(FIXTURES, 'control-plane/normal/HOT/ledger/governance.jsonl'),
];

describe('presetGate', () => {
  let gate: PresetGate;
  let scanner: KeywordScanner;
  const needsPreset = (text: string) => gate.needsPreset(text, scanner.rulesIn(text));
  beforeAll(() => {
    const known = presetGate();
    // The installed preset is the version KEYWORDS was checked for (redact.test.ts holds it too).
    expect(known).not.toBeNull();
    gate = known!;
    scanner = new KeywordScanner(gate.keywords);
  });

  it('lets through every text on which a rule of the preset reports', () => {
    const preset = new PresetSecrets();
    const texts = [
      ...PRESET_SECRETS,
      ...PRESET_SECRETS.map((text) => JSON.stringify({ note: text })),
      ...PLAIN_URLS,
      ...FIXTURE_LEDGERS.flatMap((f) => readFileSync(f, 'utf8').split('\n')),
    ];
    let reported = 0;
    for (const text of texts) {
      if (preset.spans(text).length === 0) continue;
      reported++;
      expect(needsPreset(text), text.slice(0, 200)).toBe(true);
    }
    expect(reported).toBeGreaterThanOrEqual(2 * PRESET_SECRETS.length);
  });

  it('keeps the preset unloaded for plain URLs and for texts with none of its keywords', () => {
    for (const text of PLAIN_URLS) expect(needsPreset(text), text).toBe(false);
    expect(needsPreset('a session title about list_sessions and its start-up')).toBe(false);
    expect(needsPreset('postgresql and mysql, named but not connected to')).toBe(false);
  });
});

describe('redaction with the gate', () => {
  // Imported afresh: when test files share a process (the fast tier), redact.js may already be
  // loaded with the unmocked preset module; a fresh module graph goes through the mock above.
  let redactText: typeof RedactText;
  beforeAll(async () => {
    vi.resetModules();
    ({ redactText } = await import('./redact.js'));
  });

  it('loads the preset only at the first text that may hold one of its secrets, and finds it', () => {
    const before = loads.count;
    expect(redactText(PLAIN_URLS[2]!)).toBe(PLAIN_URLS[2]);
    // Our own rules run without the preset.
    expect(redactText(`key sk-ant-${rand(ALNUM, 16)}`)).toBe('key [REDACTED:api_key]');
    expect(loads.count).toBe(before);
    // Credentials in a URL: the preset's basicauth names the marker, as it would with the preset
    // loaded from the start.
    expect(redactText(`https://bot:${rand(ALNUM, 12)}@git.acme.io/x`)).toBe('https://bot:[REDACTED:basicauth]@git.acme.io/x');
    expect(loads.count).toBe(before + 1);
    expect(redactText(`token ghp_${rand(ALNUM, 36)}`)).toBe('token [REDACTED:github]');
    expect(loads.count).toBe(before + 1);
  });
});
