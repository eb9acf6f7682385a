import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { copyFixture, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { runTool } from '../tool.js';
import { searchSessions } from './index.js';

type Match = Record<string, any>;

const CC_SHORT = '55604662-cf2a-4331-851a-ec234028f8ca'; // first message: "mix phx.server doesnt seem to start"
const AMP_PROJECT = '-Users-jonas.weber-code-storefront-web';

let store: SqliteStore;
const search = (args: Record<string, unknown>) => runTool(searchSessions, args, { store }) as Promise<Record<string, any>>;
const ok = async (args: Record<string, unknown>) => {
  const r = await search(args);
  expect(r.status, JSON.stringify(r)).toBe('ok');
  return r;
};
const transcript = (r: Record<string, any>) => (r.matches as Match[]).filter((m) => m.match_type === 'transcript');

beforeAll(async () => {
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  await ingestPaths(store, [copyFixture('control-plane/normal'), copyFixture('claude-code'), copyFixture('amplifier/normal')]);
}, 60_000);

describe('search_sessions: transcript', () => {
  it('a word of a known Claude Code user message finds that line, with an excerpt holding the word', async () => {
    const r = await ok({ query: 'phx', scope: 'transcript', limit: 500 });
    const hit = transcript(r).find((m) => m.session_id === CC_SHORT && m.event_type === 'user');
    expect(hit).toMatchObject({ format: 'claude-code', project: '-home-marco-projects-spotter', ledger: 'transcript', line_number: 4, started_at: '2026-02-10T21:11:52.438Z' });
    expect(hit!.excerpt).toBe('mix phx.server doesnt seem to start');
    // The line it names is the message's raw line.
    const [raw] = await store.evidenceLines([{ fileId: (await store.sessionLedgers(CC_SHORT))[0]!.files[0]!.fileId, lineNumber: 4 }]);
    expect(raw!.raw.toString()).toContain('mix phx.server doesnt seem to start');
    for (const m of r.matches as Match[]) {
      expect(m.excerpt.length).toBeLessThanOrEqual(300);
      expect(m.excerpt.toLowerCase()).toContain('phx');
      expect(m.score).toBeGreaterThan(0);
    }
    expect(r.count).toBe(r.matches.length);
  });

  it('cuts a long message to at most 300 characters around the term, marking the cuts', async () => {
    const r = await ok({ query: 'TranscriptHighlighter', scope: 'transcript', limit: 500 });
    expect(r.count).toBeGreaterThan(0);
    const long = transcript(r).filter((m) => m.excerpt.startsWith('…'));
    expect(long.length).toBeGreaterThan(0);
    for (const m of r.matches as Match[]) {
      expect(m.excerpt.length).toBeLessThanOrEqual(300);
      expect(m.excerpt).toMatch(/transcripthighlighter/i);
      expect(m.excerpt).not.toMatch(/\n/);
    }
  });

  it('a "phrase" matches its words in order and adjacent; the same words unquoted match anywhere', async () => {
    const phrase = await ok({ query: '"doesnt seem to start"', scope: 'transcript' });
    expect(transcript(phrase).map((m) => m.session_id)).toContain(CC_SHORT);
    expect(transcript(phrase).every((m) => /doesnt seem to start/i.test(m.excerpt))).toBe(true);
    const reversed = await ok({ query: '"start to seem doesnt"', scope: 'transcript' });
    expect(reversed.count).toBe(0);
    const words = await ok({ query: 'start seem doesnt', scope: 'transcript' });
    expect(words.count).toBeGreaterThanOrEqual(phrase.count);
  });

  it('prefix* matches words that start with it; the same text as a word matches whole words only', async () => {
    const prefix = await ok({ query: 'Unauthori*', scope: 'transcript', limit: 500 });
    expect(prefix.count).toBeGreaterThan(0);
    expect(transcript(prefix).every((m) => /unauthori/i.test(m.excerpt))).toBe(true);
    expect(new Set(transcript(prefix).map((m) => m.format))).toContain('amplifier');
    expect((await ok({ query: 'Unauthori', scope: 'transcript' })).count).toBe(0);
    expect((await ok({ query: 'zzqqxx*', scope: 'transcript' })).count).toBe(0);
  });

  it('ignores case and accents as the index does (cafe finds café in a Control Plane turn)', async () => {
    const r = await ok({ query: 'CAFE', scope: 'transcript' });
    const hit = transcript(r).find((m) => m.format === 'control-plane');
    expect(hit).toMatchObject({ session_id: 'SES-086A7CB0', ledger: 'ho2m', event_type: 'TURN_RECORDED' });
    expect(hit!.excerpt.normalize('NFC')).toContain('café');
  });

  it('ranks by relevance, then the newest session, then id and line', async () => {
    const r = await ok({ query: 'the', scope: 'transcript', limit: 500, context_lines: 0 });
    const ms = transcript(r);
    expect(ms.length).toBeGreaterThan(20);
    for (let i = 1; i < ms.length; i++) {
      const [a, b] = [ms[i - 1]!, ms[i]!];
      expect(a.score).toBeGreaterThanOrEqual(b.score);
      if (a.score === b.score && a.started_at !== b.started_at) expect(a.started_at > b.started_at).toBe(true);
    }
  });

  it('context_lines gives up to that many neighbouring messages of the same file on each side, each bounded', async () => {
    const r = await ok({ query: 'phx', scope: 'transcript', context_lines: 1, limit: 500 });
    const hit = transcript(r).find((m) => m.session_id === CC_SHORT && m.line_number === 4)!;
    expect(hit.context.before).toEqual([]);
    expect(hit.context.after).toHaveLength(1);
    expect(hit.context.after[0]).toMatchObject({ event_type: 'assistant', text: 'Let me check the project structure and try running the server to see the error.' });
    expect(hit.context.after[0].line_number).toBeGreaterThan(4);
    for (const m of transcript(await ok({ query: 'the', scope: 'transcript', context_lines: 5, limit: 100 }))) {
      expect(m.context.before.length).toBeLessThanOrEqual(5);
      expect(m.context.after.length).toBeLessThanOrEqual(5);
      for (const n of [...m.context.before, ...m.context.after]) expect(n.text.length).toBeLessThanOrEqual(160);
    }
    const none = await ok({ query: 'phx', scope: 'transcript', context_lines: 0 });
    expect(transcript(none).every((m) => m.context.before.length === 0 && m.context.after.length === 0)).toBe(true);
    for (const context_lines of [-1, 6, 1.5, 'x']) expect(await search({ query: 'phx', context_lines })).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
  });
});

describe('search_sessions: metadata and all', () => {
  it('metadata scope finds a session by its title / first message, by id and by project', async () => {
    const byTitle = await ok({ query: 'doesnt SEEM', scope: 'metadata' });
    expect(byTitle.matches).toEqual([
      expect.objectContaining({ session_id: CC_SHORT, match_type: 'metadata', match_field: 'title', excerpt: 'mix phx.server doesnt seem to start', line_number: null, ledger: null, score: null, context: null }),
    ]);
    const deploy = await ok({ query: 'deploy 401', scope: 'metadata' });
    expect(deploy.count).toBe(3);
    expect((deploy.matches as Match[]).every((m) => m.format === 'amplifier' && m.match_type === 'metadata')).toBe(true);
    expect((deploy.matches as Match[]).map((m) => m.match_field)).toContain('title');
    const byId = await ok({ query: '55604662', scope: 'metadata' });
    expect(byId.matches).toEqual([expect.objectContaining({ session_id: CC_SHORT, match_type: 'metadata', match_field: 'id', excerpt: CC_SHORT })]);
    const byProject = await ok({ query: 'storefront', scope: 'metadata', limit: 500 });
    expect(byProject.count).toBeGreaterThan(0);
    // A first message that mentions storefront.dev ranks above the project name (field order).
    expect((byProject.matches as Match[]).map((m) => [m.match_type, m.match_field, m.project])).toEqual([
      ['metadata', 'first_user_message', '-home-maya-src-acme-billing'],
      ['metadata', 'project', AMP_PROJECT],
      ['metadata', 'project', AMP_PROJECT],
      ['metadata', 'project', AMP_PROJECT],
    ]);
  });

  it('all lists metadata matches first, then transcript matches; pages run across both', async () => {
    const all = await ok({ query: 'phx', limit: 500 });
    const meta = await ok({ query: 'phx', scope: 'metadata', limit: 500 });
    const text = await ok({ query: 'phx', scope: 'transcript', limit: 500 });
    expect(all.count).toBe(meta.count + text.count);
    expect(all.matches).toEqual([...meta.matches, ...text.matches]);
    const pages: Match[] = [];
    for (let offset = 0; offset < all.count; offset += 2) {
      const p = await ok({ query: 'phx', limit: 2, offset });
      expect(p.count).toBe(all.count);
      pages.push(...p.matches);
    }
    expect(pages).toEqual(all.matches);
    expect(await ok({ query: 'phx', offset: all.count + 5 })).toMatchObject({ count: all.count, returned: 0, has_more: false });
  });
});

describe('search_sessions: filters', () => {
  it('project keeps matches of that project; an unknown project gives ok with count 0', async () => {
    const r = await ok({ query: 'rotated', project: AMP_PROJECT, limit: 500 });
    expect(r.count).toBeGreaterThan(0);
    expect((r.matches as Match[]).every((m) => m.project === AMP_PROJECT)).toBe(true);
    expect(await ok({ query: 'rotated', project: '-path-to-Demo' })).toMatchObject({ count: 0, matches: [] });
    expect(await ok({ query: 'rotated', project: 'no-such-project' })).toMatchObject({ count: 0, matches: [] });
  });

  it('date_range keeps sessions started in it; format narrows too', async () => {
    const every = await ok({ query: 'rotated', limit: 500 });
    const day = await ok({ query: 'rotated', date_range: '2026-06-10', limit: 500 });
    expect(day.count).toBeGreaterThan(0);
    expect(day.count).toBeLessThan(every.count);
    expect((day.matches as Match[]).every((m) => m.started_at.startsWith('2026-06-10'))).toBe(true);
    expect(await ok({ query: 'rotated', date_range: '2020-01-01:2020-12-31' })).toMatchObject({ count: 0 });
    expect(await ok({ query: 'rotated', format: 'claude-code' })).toMatchObject({ count: 0 });
    const bad = await search({ query: 'rotated', date_range: '2026-06-11:2026-06-10' });
    expect(bad).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
    expect(bad.error).toContain('YYYY-MM-DD:YYYY-MM-DD');
  });
});

describe('search_sessions: bad input', () => {
  it('queries with FTS operators or stray punctuation never error', async () => {
    for (const query of ['NEAR(', '"unbalanced', 'a AND', '-x', 'col:val', '(', 'OR', 'NOT phx', '*', '"', '""', 'phx)', '^start', 'a + b', "it's", '{x}', 'NEAR(phx doesnt, 2)']) {
      for (const scope of ['all', 'metadata', 'transcript']) {
        const r = await search({ query, scope });
        expect(r.status, `${scope}: ${query} → ${JSON.stringify(r)}`).toBe('ok');
      }
    }
    // Operators are words: NOT phx needs both "not" and "phx".
    expect((await ok({ query: 'phx)', scope: 'transcript' })).count).toBe((await ok({ query: 'phx', scope: 'transcript' })).count);
  });

  it('an empty or whitespace query is an error saying what to pass', async () => {
    for (const query of ['', '   ', '\n\t']) {
      const r = await search({ query });
      expect(r).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
      expect(r.error).toContain('query');
    }
    expect(await search({})).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
    expect(await search({ query: 'x', scope: 'everything' })).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
    expect(await search({ query: 'x', limit: 0 })).toMatchObject({ status: 'error', error: expect.stringContaining('1 to 500') });
    expect(await search({ query: 'x', bogus: 1 })).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
  });
});

describe('search_sessions: output', () => {
  it('redacts secrets in excerpts unless redact is false', async () => {
    const r = await ok({ query: 'rotated', limit: 500 });
    expect(transcript(r).length).toBeGreaterThan(0);
    const json = JSON.stringify(r);
    expect(json).not.toContain('sk-proj-');
    expect(json).toContain('[REDACTED:api_key]');
    const exact = JSON.stringify(await ok({ query: 'rotated', limit: 500, redact: false }));
    expect(exact).toContain('sk-proj-OQkCGQvwJZFqDnNq7IYdseea');
  });

  it('is deterministic: the same call twice gives byte-identical JSON', async () => {
    for (const args of [{ query: 'the', limit: 500 }, { query: 'phx', context_lines: 3 }, { query: 'deploy* "401 unauthorized"', offset: 1, limit: 2 }]) {
      expect(JSON.stringify(await search(args))).toBe(JSON.stringify(await search(args)));
    }
  });

  it('max_bytes cuts matches from the end and says so', async () => {
    const full = await ok({ query: 'the', limit: 50 });
    const cut = await ok({ query: 'the', limit: 50, max_bytes: 3000 });
    expect(cut.truncated).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(cut))).toBeLessThanOrEqual(3000);
    expect(cut.matches).toEqual(full.matches.slice(0, cut.returned));
    expect(await ok({ query: 'the', max_bytes: 10 })).toMatchObject({ returned: 0, truncated: true });
  });

  it('answers in the shape its output schema declares', async () => {
    const r = await ok({ query: 'the', limit: 500 });
    expect(() => searchSessions.output.parse(JSON.parse(JSON.stringify(r)))).not.toThrow();
  });
});
