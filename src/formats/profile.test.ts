// The format profile contract: every hook documented where it is declared, every registered format
// with a complete profile, and the generic defaults a new format gets for the hooks it leaves out.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../core/events.js';
import { defineProfile, GENERIC, genericProfile, type FormatProfile } from './profile.js';
import { FORMATS, formatLabels, loadImporter, profileOf, profilesOf } from './registry.js';

const HOOKS = Object.keys(GENERIC) as (keyof typeof GENERIC)[];

function event(over: Partial<StoredEvent>): StoredEvent {
  return {
    seq: 1, sessionId: 's', fileId: 1, ledger: 'main', file: 'a.jsonl', lineNumber: 1, part: 0, tsKey: null, type: 't', kind: 'system',
    actor: null, turn: null, ids: {}, tiebreak: '', ledgerRank: 0, usage: null, toolName: null, toolStatus: null, summary: 'said', attrs: {},
    ...over,
  };
}

describe('FormatProfile', () => {
  it('documents every hook where the interface declares it', () => {
    const source = readFileSync(new URL('./profile.ts', import.meta.url), 'utf8');
    const body = source.slice(source.indexOf('export interface FormatProfile {'));
    for (const hook of ['label', ...HOOKS]) {
      expect(body, `${hook} is declared in FormatProfile`).toMatch(new RegExp(`\\n  ${hook}[(:]`));
      expect(body, `${hook} has a doc comment right above it`).toMatch(new RegExp(`\\*/\\n  ${hook}[(:]`));
    }
  });

  it('gives every registered format a complete profile with a label', async () => {
    for (const format of FORMATS) {
      const profile = await profileOf(format);
      expect(profile, format).toBe((await loadImporter(format)).profile);
      expect(profile.label.trim(), format).not.toBe('');
      for (const hook of HOOKS) expect(profile[hook], `${format}.${hook}`).toBeDefined();
      // A format that cannot be rewound says why in its own words.
      if (profile.rewind === null) expect(profile.rewindRefusal, format).not.toBe(GENERIC.rewindRefusal);
    }
  });

  it('lists the formats with their labels in registry order (the viewer reads this)', async () => {
    const labels = await formatLabels();
    expect(labels.map((f) => f.id)).toEqual([...FORMATS]);
    expect(labels.every((f) => f.label !== '' && f.label !== f.id)).toBe(true);
  });

  it('answers a format this build does not know with the generic profile named by its id', async () => {
    const profile = await profileOf('some-future-agent');
    expect(profile.label).toBe('some-future-agent');
    expect(profile.rewind).toBeNull();
    const map = await profilesOf(['some-future-agent', FORMATS[0], FORMATS[0]]);
    expect([...map.keys()]).toEqual(['some-future-agent', FORMATS[0]]);
  });

  it('fills the hooks a profile leaves out with the generic ones, and keeps the ones it gives', () => {
    const turns = (events: readonly StoredEvent[]) => events.slice(0, 1);
    const p: FormatProfile = defineProfile({ label: 'Test', userTurns: turns, latencyBetweenLines: true });
    expect(p.userTurns).toBe(turns);
    expect(p.latencyBetweenLines).toBe(true);
    expect(p.replay).toBe(GENERIC.replay);
    expect(genericProfile('x')).toEqual({ ...GENERIC, label: 'x' });
  });
});

describe('the generic hooks', () => {
  const g = genericProfile('x');

  it('counts human user messages as turns and user/assistant messages as the transcript', () => {
    const human = event({ kind: 'user_message' });
    const machine = event({ kind: 'user_message', attrs: { nonHuman: true } });
    const reply = event({ kind: 'assistant_message' });
    expect(g.userTurns([human, machine, reply])).toEqual([human]);
    expect(g.transcriptMessages([human, reply, event({ kind: 'tool_call' })]).map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('hides conversation text in compact rows and says what it was', () => {
    const text = event({ kind: 'assistant_message', summary: 'the secret plan' });
    expect(g.isTextEvent(text)).toBe(true);
    expect(g.textFreeSummary(text, null)).toBe('Assistant text');
    expect(g.isTextEvent(event({ kind: 'tool_call' }))).toBe(false);
  });

  it('finds a tool call input in the common places, a JSON string included', () => {
    const e = event({ kind: 'tool_call' });
    expect(g.toolCallInput(e, { arguments: '{"path":"a.txt"}' })).toEqual({ path: 'a.txt' });
    expect(g.toolCallInput(e, { metadata: { tool_input: { file_path: 'b' } } })).toEqual({ file_path: 'b' });
    expect(g.toolCallInput(e, { arguments: 'not json' })).toBeUndefined();
  });

  it('replays messages, tool calls and errors from the stored events alone', () => {
    expect(g.replay.needsLine(event({}))).toBe(false);
    const cx = { userTextLimit: 1024, agentOfCall: new Map(), sessionId: 's', places: new Map(), start: { cwd: undefined, branch: undefined }, detail: false };
    expect(g.replay.map(event({ kind: 'user_message', summary: 'hi' }), undefined, cx)).toEqual([{ r: 'user', m: 'hi' }]);
    expect(g.replay.map(event({ kind: 'tool_result', toolName: 'Bash', toolStatus: 'error' }), undefined, cx)).toEqual([
      { r: 'user', tool_result: 'Bash', status: 'error' },
    ]);
    expect(g.replay.map(event({ kind: 'error', summary: 'boom' }), undefined, cx)).toEqual([{ r: 'system', msg: 'boom', status: 'error' }]);
    expect(g.replay.map(event({ kind: 'system' }), undefined, cx)).toEqual([]);
  });

  it('reads a ledger entry from common shapes and treats metadata documents as documents', () => {
    expect(g.ledgerEntry({ uuid: 'u1', ts: '2026-01-01T00:00:00Z' }, 'assistant')).toMatchObject({ id: 'u1', event_type: 'assistant', timestamp: '2026-01-01T00:00:00Z' });
    expect(g.ledgerEntry(null, 'x')).toMatchObject({ id: null, metadata: null });
    expect(g.isDocumentLedger('metadata')).toBe(true);
    expect(g.isDocumentLedger('agent-1.meta')).toBe(true);
    expect(g.isDocumentLedger('transcript')).toBe(false);
  });

  it('counts every usage record, every ledger, and has no ending or rewind of its own', () => {
    expect(g.countsUsage(event({}))).toBe(true);
    expect(g.toolLedger({} as never, [])).toBeNull();
    expect(g.ending([])).toEqual({ degradation: null, budgetExhausted: false });
    expect(g.erroredEnding({ degradation: null, budgetExhausted: false, unansweredTool: null, interruptedByUser: false, lastError: 'x' }, (t) => t)).toBeNull();
    expect(g.problemType(event({}))).toBeNull();
    expect(g.rewind).toBeNull();
  });
});
