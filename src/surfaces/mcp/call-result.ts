// A tool envelope as an MCP tool result: structuredContent plus its compact JSON as text on
// success; on a tool error, isError with the error sentence, so the model can correct itself.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../../tools/tool.js';

/**
 * Success: `structuredContent` is the envelope and the one text item is its compact JSON — the
 * very bytes `max_bytes` was measured on, so neither exceeds the cap.
 *
 * Error: only the sentence (and the code in `_meta`). The envelope is not sent as
 * `structuredContent` because clients validate it against the tool's output schema, which
 * describes success; an error envelope would be rejected there and hide the sentence.
 *
 * @example
 * toCallResult({ status: 'error', error: 'No session with id "x"…', code: 'SESSION_NOT_FOUND' });
 * // { isError: true, content: [{ type: 'text', text: 'No session with id "x"…' }], _meta: { 'hindsight/code': 'SESSION_NOT_FOUND' } }
 */
export function toCallResult(result: ToolResult): CallToolResult {
  if (result.status === 'error') {
    return {
      isError: true,
      content: [{ type: 'text', text: result.error }],
      _meta: { 'hindsight/code': result.code },
    };
  }
  return {
    structuredContent: result,
    content: [{ type: 'text', text: JSON.stringify(result) }],
  };
}

/**
 * A sentence for what should never happen (a bug in a tool), still as a result, not a protocol failure.
 *
 * @example internalErrorResult('list_sessions', new Error('database closed')).isError // true
 */
export function internalErrorResult(tool: string, err: unknown): CallToolResult {
  const reason = err instanceof Error ? err.message : String(err);
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: `Hindsight failed inside ${tool} (${reason}). This is a bug, not a problem with your arguments: try other arguments or another tool, and report it with the arguments used.`,
      },
    ],
    _meta: { 'hindsight/code': 'INTERNAL' },
  };
}
