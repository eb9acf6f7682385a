// The child process of the SIGKILL test (recorder.test.ts): records steps of a session as fast as
// it can, each with a large tool result so a kill is likely to land inside a write, and says
// "ready" once the first steps are on disk. It never stops by itself; the test kills it.
// Usage: vite-node test-kill-child.ts <sessions root> <session id>

import { createRecorder } from './recorder.js';

const [root, sessionId] = process.argv.slice(2);
const rec = createRecorder({ sessionsRoot: root!, sessionId: sessionId!, store: null });
rec.record({ type: 'session_start', mode: 'run', provider: 'openai-compatible', model: 'gpt-4o-mini', cwd: '/work/demo', agent: 'default', tools_allowed: ['bash'], hindsight_version: '0.4.0' });
rec.record({ type: 'message', role: 'user', content: 'loop until killed', turn: 1 });
const big = 'x'.repeat(512 * 1024);
for (let step = 1; ; step++) {
  rec.record({ type: 'model_call', turn: 1, step, provider: 'openai-compatible', model: 'gpt-4o-mini', usage: { input_tokens: 10, output_tokens: 5, cache_read_tokens: 0, cache_creation_tokens: 0, reasoning_tokens: 0 }, usage_source: 'provider', finish_reason: 'tool_calls', response_id: null, duration_ms: 1, cost_usd: 0 });
  rec.record({ type: 'message', role: 'assistant', content: null, tool_calls: [{ id: `call_${step}`, name: 'bash', arguments: { command: 'yes | head' } }], turn: 1, step });
  rec.record({ type: 'tool_result', turn: 1, step, call_id: `call_${step}`, name: 'bash', content: big, is_error: false, duration_ms: 1 });
  if (step === 5) process.stdout.write('ready\n');
}
