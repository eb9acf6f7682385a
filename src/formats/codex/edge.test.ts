// Layout, detection and bad input: what a Codex root is (and is not), archived and duplicated
// rollouts, pre-wrapper rollouts, and every malformed line named with what and where.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { HUGE_LINE_BYTES } from '../../core/model.js';
import { runImporter } from '../harness.js';
import { codex } from './index.js';
import { codexDefaultRoots, detectCodex } from './roots.js';

const ID = '019e2000-0000-7000-8000-00000000000a';
const line = (o: unknown) => JSON.stringify(o);
const meta = (id = ID) => line({ timestamp: '2026-04-01T10:00:00.000Z', type: 'session_meta', payload: { id, timestamp: '2026-04-01T10:00:00.000Z', cwd: '/w/p', cli_version: '0.125.0' } });
const prompt = (text: string, s = 1) => line({ timestamp: `2026-04-01T10:00:0${s}.000Z`, type: 'event_msg', payload: { type: 'user_message', message: text } });

function home(files: Record<string, string>): string {
  const root = tempDir('hs-codex-edge-');
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

describe('codex layout and detection', () => {
  it('claims a home, its sessions folders, a date folder and a rollout, and nothing else', async () => {
    const root = home({ [`sessions/2026/04/01/rollout-2026-04-01T10-00-00-${ID}.jsonl`]: `${meta()}\n`, 'other/notes.jsonl': '{}\n' });
    expect(await detectCodex(root)).toBe(true);
    expect(await detectCodex(join(root, 'sessions'))).toBe(true);
    expect(await detectCodex(join(root, 'sessions/2026/04/01'))).toBe(true);
    expect(await detectCodex(join(root, `sessions/2026/04/01/rollout-2026-04-01T10-00-00-${ID}.jsonl`))).toBe(true);
    expect(await detectCodex(join(root, 'other'))).toBe(false);
    expect(await detectCodex(join(root, 'other/notes.jsonl'))).toBe(false);
    // Other formats' roots: a Claude Code config folder and an Amplifier home.
    expect(await detectCodex('../shared/fixtures/claude-code')).toBe(false);
    expect(await detectCodex('../shared/fixtures/amplifier')).toBe(false);
  });

  it('finds default homes from CODEX_HOME (a comma list) or ~/.codex', async () => {
    const a = home({ 'sessions/.keep': '' });
    const b = home({ 'archived_sessions/.keep': '' });
    expect(await codexDefaultRoots({ CODEX_HOME: `${a}, ${b}, /nowhere` }, '/home/x')).toEqual([a, b]);
    const user = home({ '.codex/sessions/.keep': '' });
    expect(await codexDefaultRoots({}, user)).toEqual([join(user, '.codex')]);
    expect(await codexDefaultRoots({}, '/nowhere')).toEqual([]);
  });

  it('reads archived rollouts and keeps a second copy of a session as evidence only', async () => {
    const name = `rollout-2026-04-01T10-00-00-${ID}.jsonl`;
    const root = home({ [`sessions/2026/04/01/${name}`]: `${meta()}\n${prompt('hello')}\n`, [`archived_sessions/${name}`]: `${meta()}\n${prompt('hello')}\n`, 'archived_sessions/rollout-2026-03-01T09-00-00-019e2000-0000-7000-8000-00000000000b.jsonl': `${meta('019e2000-0000-7000-8000-00000000000b')}\n${prompt('old one')}\n` });
    const r = await runImporter(codex, root);
    expect([...r.sessions.keys()].sort()).toEqual([ID, '019e2000-0000-7000-8000-00000000000b']);
    expect(r.sessions.get(ID)!.summary.turnCount).toBe(1);
    const copy = r.files.find((f) => f.relPath === `archived_sessions/${name}`)!;
    expect(copy.evidenceOnly).toBe(true);
    expect(r.defects.find((d) => d.kind === 'duplicate_session_file')).toMatchObject({ file: `archived_sessions/${name}`, severity: 'warning' });
    expect(r.sessions.get('019e2000-0000-7000-8000-00000000000b')!.facts.attrs).toMatchObject({ archived: true });
  });

  it('reads a pre-wrapper rollout (response items as lines, record_type state)', async () => {
    const old = [
      line({ id: ID, timestamp: '2025-05-01T10:00:00.000Z', instructions: null }),
      line({ record_type: 'state' }),
      line({ type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>cwd</environment_context>' }] }),
      line({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix the build' }] }),
      line({ type: 'function_call', name: 'shell', arguments: '{"command":["bash","-lc","make"]}', call_id: 'c1' }),
      line({ type: 'function_call_output', call_id: 'c1', output: '{"output":"make: *** Error 2","metadata":{"exit_code":2}}' }),
      line({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'The build fails in make.' }] }),
    ].join('\n');
    const r = await runImporter(codex, home({ [`sessions/2025/05/01/rollout-2025-05-01T10-00-00-${ID}.jsonl`]: `${old}\n` }));
    const s = r.sessions.get(ID)!;
    expect(r.defects).toEqual([]);
    expect(s.summary).toMatchObject({ turnCount: 1, firstUserMessage: 'fix the build', toolCalls: 1, toolErrors: 1, status: 'completed' });
    expect(s.summary.attrs?.usage).toBe('unknown');
  });

  it('names every bad line (what and where) and loses nothing else', async () => {
    const text = [
      meta(),
      '{"timestamp":"2026-04-01T10:00:01.000Z","type":"event_msg","payload":{"type":"user_message","message":"go"}',
      line({ timestamp: '2026-04-01T10:00:02.000Z', payload: { type: 'user_message', message: 'no type' } }),
      line({ timestamp: '2026-04-01T10:00:03.000Z', type: 'response_item' }),
      line({ timestamp: '2026-04-01T10:00:04.000Z', type: 'event_msg', payload: { type: 'token_count', info: { last_token_usage: { input_tokens: -5, output_tokens: 'many' }, total_token_usage: { input_tokens: 100, output_tokens: 1 } } } }),
      line({ timestamp: '2026-04-01T10:00:05.000Z', type: 'world_state', payload: {} }),
      line([1, 2]),
      prompt('still read', 6),
      line({ timestamp: '2026-04-01T10:00:07.000Z', type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"sleep 100"}', call_id: 'call_x' } }),
    ].join('\n');
    const r = await runImporter(codex, home({ [`sessions/2026/04/01/rollout-2026-04-01T10-00-00-${ID}.jsonl`]: `${text}\n` }));
    const found = r.defects.map((d) => [d.line, d.kind, d.severity]);
    expect(found).toEqual(
      expect.arrayContaining([
        [2, 'malformed_json', 'error'],
        [3, 'not_a_rollout_record', 'error'],
        [4, 'malformed_record', 'error'],
        [5, 'malformed_usage', 'warning'],
        [6, 'unknown_record_type', 'info'],
        [7, 'non_object_json', 'error'],
      ]),
    );
    for (const d of r.defects) expect(d.message.length, d.kind).toBeGreaterThan(10);
    const s = r.sessions.get(ID)!;
    expect(s.summary.firstUserMessage).toBe('still read');
    // The bad count fields read as 0, so that call has nothing to count (as in ccusage).
    expect(s.summary.tokens).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
    expect(s.summary.status).toBe('interrupted');
    expect(s.derivedDefects).toEqual([expect.objectContaining({ kind: 'orphan_tool_call', line: 9 })]);
  });

  it('keeps a huge tool output as the answer to its call, reading only its head', async () => {
    const call = line({ timestamp: '2026-04-01T10:00:02.000Z', type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"cat big.log"}', call_id: 'call_big' } });
    const output = line({ timestamp: '2026-04-01T10:00:03.000Z', type: 'response_item', payload: { type: 'function_call_output', call_id: 'call_big', output: 'x'.repeat(HUGE_LINE_BYTES + 1024) } });
    const r = await runImporter(codex, home({ [`sessions/2026/04/01/rollout-2026-04-01T10-00-00-${ID}.jsonl`]: `${meta()}\n${prompt('show the log')}\n${call}\n${output}\n` }));
    const s = r.sessions.get(ID)!;
    const result = s.events.find((e) => e.kind === 'tool_result')!;
    expect(result).toMatchObject({ toolName: 'exec_command', ids: { toolCall: 'call_big' }, attrs: { huge: true } });
    expect(s.derivedDefects).toEqual([]);
    expect(r.defects.map((d) => d.kind)).toEqual(['oversized_line']);
  });

  it('says when a rollout does not open with session_meta', async () => {
    const r = await runImporter(codex, home({ [`sessions/2026/04/01/rollout-2026-04-01T10-00-00-${ID}.jsonl`]: `${prompt('headless')}\n` }));
    expect(r.defects).toEqual([expect.objectContaining({ kind: 'missing_session_meta', line: 1, severity: 'warning' })]);
    expect(r.sessions.get(ID)!.summary.firstUserMessage).toBe('headless');
  });
});
