import { describe, expect, it } from 'vitest';
import { buildCompactionSummary, gatherSummaryFacts, splitSummary, SUMMARY_END, SUMMARY_HEADING } from './summary.js';
import { ask, call, result, say, user } from './test-conversations.js';

const dropped = [
  user('Fix the flaky date test in src/time.ts'),
  ask([call('1', 'read', { path: 'src/time.ts' }), call('2', 'read', { file_path: 'src/time.test.ts' })], 'Let me look at the code first.'),
  result('1', 'read', 'export function f() {}'),
  result('2', 'read', 'it(...)'),
  ask([call('3', 'bash', { command: 'npm test -- time' })]),
  result('3', 'bash', 'FAIL src/time.test.ts\nExpected 1 got 2', true),
  ask([call('4', 'edit', { path: 'src/time.ts', old_string: 'a', new_string: 'b' }), call('5', 'write', { path: 'src/new.ts', content: 'x' })], "I'll use UTC everywhere instead of the local zone. The rest stays."),
  result('4', 'edit', 'edited'),
  result('5', 'write', 'written'),
  user('Also update the changelog'),
  say('Done: the test passes with TZ=UTC and the changelog says so.'),
];

describe('summary facts', () => {
  it('gathers tasks, tool counts, files by kind, errors with their call, decisions and the last statement', () => {
    const f = gatherSummaryFacts(dropped);
    expect(f.messages).toBe(11);
    expect(f.tasks).toEqual(['Fix the flaky date test in src/time.ts', 'Also update the changelog']);
    expect(Object.fromEntries(f.tools)).toEqual({
      read: { calls: 2, failed: 0 },
      bash: { calls: 1, failed: 1 },
      edit: { calls: 1, failed: 0 },
      write: { calls: 1, failed: 0 },
    });
    expect(f.filesRead).toEqual(['src/time.ts', 'src/time.test.ts']);
    expect(f.filesEdited).toEqual(['src/time.ts']);
    expect(f.filesWritten).toEqual(['src/new.ts']);
    expect(f.errors).toEqual(['bash npm test -- time: FAIL src/time.test.ts']);
    expect(f.decisions).toEqual(['Let me look at the code first.', "I'll use UTC everywhere instead of the local zone."]);
    expect(f.lastAssistant).toBe('Done: the test passes with TZ=UTC and the changelog says so.');
  });
});

describe('the summary block', () => {
  it('is compact markdown with every section, ending with the end marker', () => {
    expect(buildCompactionSummary(dropped, { tokens: 12_345 })).toBe(
      [
        SUMMARY_HEADING,
        '(11 earlier messages, about 12,345 tokens, were replaced by this summary, written from them without a model; the session record keeps them in full.)',
        '',
        '### Tasks asked',
        '1. “Fix the flaky date test in src/time.ts”',
        '2. “Also update the changelog”',
        '',
        '### Tools used',
        'read ×2, bash ×1 (1 failed), edit ×1, write ×1',
        '',
        '### Files',
        '- read: src/time.ts, src/time.test.ts',
        '- edited: src/time.ts',
        '- written: src/new.ts',
        '',
        '### Errors seen (1)',
        '- bash npm test -- time: FAIL src/time.test.ts',
        '',
        '### Decisions',
        '- Let me look at the code first.',
        "- I'll use UTC everywhere instead of the local zone.",
        '',
        '### Last assistant statement',
        '“Done: the test passes with TZ=UTC and the changelog says so.”',
        SUMMARY_END,
      ].join('\n'),
    );
  });

  it('is the same text for the same messages', () => {
    expect(buildCompactionSummary(dropped, { tokens: 1 })).toBe(buildCompactionSummary([...dropped], { tokens: 1 }));
  });

  it('bounds long lists: the first task and the newest, files with a count of the rest, the newest errors', () => {
    const many = [
      ...Array.from({ length: 30 }, (_, i) => user(`task number ${i}`)),
      ...Array.from({ length: 30 }, (_, i) => [ask([call(`r${i}`, 'read', { path: `f${i}.ts` })]), result(`r${i}`, 'read', 'boom', true)]).flat(),
    ];
    const full = buildCompactionSummary(many, { tokens: 1, style: 'full' });
    expect(full).toContain('1. “task number 0”\n   (25 more in between)\n27. “task number 26”');
    expect(full).toContain('(+10 more)');
    expect(full).toContain('### Errors seen (30, the last 5 shown)');
    const short = buildCompactionSummary(many, { tokens: 1, style: 'short' });
    expect(short.length).toBeLessThan(full.length);
    expect(short).toContain('1. “task number 0”\n   (28 more in between)\n30. “task number 29”');
    expect(short).toContain('### Errors seen (30, the last 2 shown)');
  });

  it('carries an earlier summary forward and reads the user text joined after it as a task', () => {
    const earlier = buildCompactionSummary(dropped, { tokens: 100 });
    const again = buildCompactionSummary([user(`${earlier}\n\nNext: ship it`), say('Shipping now.')], { tokens: 50 });
    expect(splitSummary(`${earlier}\n\nNext: ship it`)?.rest).toBe('Next: ship it');
    expect(again).toContain('### Before that\n(11 earlier messages');
    expect(again).toContain('### Tasks asked\n1. “Next: ship it”');
    expect(again.split(SUMMARY_END)).toHaveLength(2);
  });
});
