// parse_tool_calls's examples: valid calls on the example store (../example-store.ts) and what each answers.
// A test runs every one on every surface; docs/tools.md prints them.

import type { ToolExample } from '../tool.js';

export const examples: readonly ToolExample[] = [
  { about: 'A Hermes-style tool call in model output.', args: { parser: 'hermes', text: '<tool_call>{"name": "f", "arguments": {}}</tool_call>' }, status: 'ok' },
];
