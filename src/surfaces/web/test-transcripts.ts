// Claude Code transcripts written for the viewer's browser tests: one full of HTML/JS injection
// attempts, and a synthetic 100,000-event session; the line shapes follow the shared fixtures.

import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const XSS_SESSION_ID = '0bad0bad-0000-4000-8000-00000000c0de';
export const BIG_SESSION_ID = 'b16b16b1-0000-4000-8000-000000100000';

/** Strings that would run or inject markup if the viewer ever parsed session text as HTML. */
export const XSS = {
  script: '<script>window.__xss=1</script>',
  img: '<img src=x onerror="window.__xss=1">',
  markdownLink: '[click me](javascript:window.__xss=1)',
  htmlLink: '<a href="javascript:window.__xss=1" id="xss-link">pwn</a>',
  svg: '<svg onload="window.__xss=1"></svg>',
  entities: '&lt;b&gt;not bold&lt;/b&gt; &amp; co',
} as const;

const PROJECT = '-tmp-hindsight-web';
const CWD = '/tmp/hindsight/web';

function base(sessionId: string, uuid: string, parent: string | null, ts: string) {
  return { parentUuid: parent, isSidechain: false, userType: 'external', cwd: CWD, sessionId, version: '2.1.38', gitBranch: 'main', uuid, timestamp: ts };
}

function usage(input: number, output: number) {
  return { input_tokens: input, cache_creation_input_tokens: 1200, cache_read_input_tokens: 9000, output_tokens: output, service_tier: 'standard' };
}

function userText(sessionId: string, uuid: string, parent: string | null, ts: string, text: string) {
  return { ...base(sessionId, uuid, parent, ts), type: 'user', message: { role: 'user', content: text } };
}

function assistant(sessionId: string, uuid: string, parent: string, ts: string, msgId: string, content: unknown[], stop: string | null) {
  return {
    ...base(sessionId, uuid, parent, ts),
    type: 'assistant',
    requestId: `req_${msgId}`,
    message: { model: 'claude-sonnet-4-20250514', id: `msg_${msgId}`, type: 'message', role: 'assistant', content, stop_reason: stop, stop_sequence: null, usage: usage(3, 40) },
  };
}

function toolResult(sessionId: string, uuid: string, parent: string, ts: string, toolId: string, text: string, isError = false) {
  return {
    ...base(sessionId, uuid, parent, ts),
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', content: text, is_error: isError, tool_use_id: toolId }] },
    toolUseResult: { stdout: text, stderr: '', interrupted: false },
  };
}

function sessionFile(configDir: string, id: string): string {
  const dir = join(configDir, 'projects', PROJECT);
  mkdirSync(dir, { recursive: true });
  return join(dir, `${id}.jsonl`);
}

/** A Claude Code config folder holding one session whose every text field carries an injection attempt. */
export function writeXssSession(configDir: string): string {
  const id = XSS_SESSION_ID;
  const all = Object.values(XSS).join(' ');
  const t = (s: number) => new Date(Date.UTC(2026, 5, 1, 12, 0, s)).toISOString();
  const lines = [
    { type: 'summary', summary: `Title ${XSS.img} ${XSS.script}`, leafUuid: 'x5' },
    userText(id, 'x1', null, t(0), `Please render this safely: ${all} xsscanary`),
    assistant(id, 'x2', 'x1', t(1), 'x01', [{ type: 'text', text: `Here it is ${XSS.htmlLink} ${XSS.markdownLink} ${XSS.entities}` }], null),
    assistant(id, 'x3', 'x2', t(2), 'x01', [{ type: 'tool_use', id: 'toolu_x1', name: 'Bash', input: { command: `echo '${XSS.img}${XSS.script}'` } }], 'tool_use'),
    toolResult(id, 'x4', 'x3', t(3), 'toolu_x1', `${XSS.script}${XSS.svg} ${XSS.entities}`, true),
    assistant(id, 'x5', 'x4', t(4), 'x02', [{ type: 'text', text: `Done: ${XSS.script} ${XSS.img} ${XSS.entities}` }], 'end_turn'),
  ];
  writeFileSync(sessionFile(configDir, id), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return id;
}

/**
 * A Claude Code config folder holding one session of about `events` events: turns of a prompt,
 * tool call/result pairs and a closing answer. Written in chunks so it takes a second or two.
 */
export function writeBigSession(configDir: string, events = 100_000, turns = 50): string {
  const id = BIG_SESSION_ID;
  const fd = openSync(sessionFile(configDir, id), 'w');
  const perTurn = Math.max(4, Math.floor(events / turns));
  const pairs = Math.floor((perTurn - 2) / 2);
  let n = 0;
  let parent: string | null = null;
  let buf: string[] = [];
  const t0 = Date.UTC(2026, 4, 1, 8, 0, 0);
  const push = (o: Record<string, unknown>) => {
    buf.push(JSON.stringify(o));
    parent = o.uuid as string;
    n++;
    if (buf.length >= 5000) {
      writeSync(fd, buf.join('\n') + '\n');
      buf = [];
    }
  };
  const ts = () => new Date(t0 + n * 1000).toISOString();
  for (let turn = 1; turn <= turns; turn++) {
    push(userText(id, `u${n}`, parent, ts(), `Turn ${turn}: check file ${turn} of the big corpus (needle-${turn}).`));
    for (let p = 0; p < pairs; p++) {
      const tool = `toolu_${turn}_${p}`;
      push(assistant(id, `a${n}`, parent!, ts(), `${turn}_${p}`, [{ type: 'tool_use', id: tool, name: p % 3 === 0 ? 'Read' : 'Bash', input: { command: `cat src/file-${turn}-${p}.ts` } }], 'tool_use'));
      push(toolResult(id, `r${n}`, parent!, ts(), tool, `line ${p} of file ${turn}: export const value${p} = ${p};`));
    }
    push(assistant(id, `a${n}`, parent!, ts(), `${turn}_end`, [{ type: 'text', text: `Turn ${turn} done.` }], 'end_turn'));
  }
  if (buf.length) writeSync(fd, buf.join('\n') + '\n');
  closeSync(fd);
  return id;
}

export const WIDE_SESSION_ID = '3a3a3a3a-0000-4000-8000-0000000b16e5';

/** One session whose tool result is `kb` KB of text: more than the viewer's first payload cap. */
export function writeWidePayloadSession(configDir: string, kb = 150): string {
  const id = WIDE_SESSION_ID;
  const t = (s: number) => new Date(Date.UTC(2026, 5, 2, 9, 0, s)).toISOString();
  const big = 'wide payload line\n'.repeat(Math.ceil((kb * 1024) / 18));
  const lines = [
    userText(id, 'w1', null, t(0), 'Dump the whole log file, please.'),
    assistant(id, 'w2', 'w1', t(1), 'w01', [{ type: 'tool_use', id: 'toolu_w1', name: 'Bash', input: { command: 'cat big.log' } }], 'tool_use'),
    toolResult(id, 'w3', 'w2', t(2), 'toolu_w1', big),
    assistant(id, 'w4', 'w3', t(3), 'w02', [{ type: 'text', text: 'That was long.' }], 'end_turn'),
  ];
  writeFileSync(sessionFile(configDir, id), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return id;
}
