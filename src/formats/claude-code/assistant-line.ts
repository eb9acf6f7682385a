// An `assistant` line → one event per content block (part = block index): text, thinking,
// tool_use. Usage rides on part 0 only, so a line is counted at most once (see usage.ts).

import { asId, asObj, asStr, clip, contentBlocks, type Json } from './json-access.js';
import type { EventDraft, LineScope } from './line-scope.js';
import { addPending } from './parser-state.js';
import { promptHash, TASK_TOOLS } from './sidechains.js';
import { taskFields, toolCallPreview, toolResultText } from './tool-preview.js';
import { readUsage, SYNTHETIC_MODEL } from './usage.js';

export function emitAssistant(scope: LineScope): void {
  const { obj, ctx, state } = scope;
  const message = asObj(obj.message) ?? {};
  const model = asStr(message.model);
  const requestId = asId(obj.requestId);
  const messageId = asId(message.id);
  const stopReason = asStr(message.stop_reason);
  // An API failure is written as an assistant line (usually model <synthetic>) with these flags.
  const apiError = obj.isApiErrorMessage === true || (obj.error !== undefined && obj.error !== null);
  const synthetic = model === SYNTHETIC_MODEL;
  const lineUsage = readUsage(message, requestId, `${ctx.file.relPath}#${ctx.lineNumber}`);

  const common: Record<string, unknown> = {};
  if (stopReason !== undefined) common.stopReason = stopReason;
  if (synthetic) common.synthetic = true;
  if (apiError) {
    common.apiError = true;
    const err = asStr(obj.error) ?? asStr(asObj(obj.error)?.type);
    if (err !== undefined) common.error = clip(err, 120);
  }
  const ids = {
    ...(messageId !== undefined && { message: messageId }),
    ...(requestId !== undefined && { request: requestId }),
  };

  const blocks = contentBlocks(message.content);
  const drafts: EventDraft[] = blocks.map((block) => blockDraft(block, apiError));
  if (drafts.length === 0) drafts.push({ kind: apiError ? 'error' : 'llm_call', summary: model ?? 'assistant', actor: 'assistant' });
  drafts.forEach((draft, part) => {
    const attrs: Record<string, unknown> = { ...common, ...draft.attrs };
    if (part === 0 && lineUsage) {
      draft.usage = lineUsage.usage;
      if (lineUsage.cacheWrite5m !== undefined) attrs.cacheWrite5m = lineUsage.cacheWrite5m;
      if (lineUsage.cacheWrite1h !== undefined) attrs.cacheWrite1h = lineUsage.cacheWrite1h;
    }
    scope.emit({ ...draft, part, ids: { ...ids, ...draft.ids }, attrs });
  });

  rememberToolCalls(scope, blocks);
}

/**
 * Remember an assistant line's tool calls until their results arrive (tool names for results,
 * Task ↔ sidechain links). Server tools are answered inside the same message, so they never wait.
 * The full parser and the usage pass (usage-lines.ts) both call this.
 */
export function rememberToolCalls(scope: LineScope, blocks: readonly Json[]): void {
  for (const block of blocks) {
    const id = asId(block.id);
    const name = asStr(block.name);
    if (block.type !== 'tool_use' || !id || !name) continue;
    const task = TASK_TOOLS.has(name) ? taskFields(asObj(block.input)) : {};
    addPending(scope.state, {
      id,
      name,
      sessionId: scope.sessionId ?? '',
      ...(task.prompt !== undefined && { promptHash: promptHash(task.prompt) }),
      ...(task.description !== undefined && { description: task.description }),
      ...(task.subagentType !== undefined && { subagentType: task.subagentType }),
    });
  }
}

// The block type is implied by the event kind for text, thinking, tool_use and tool_result, so it
// is stored only for the others (every attrs byte is paid once per event).
function blockDraft(block: Json, apiError: boolean): EventDraft {
  const type = asStr(block.type) ?? 'unknown';
  switch (type) {
    case 'text': {
      const text = asStr(block.text) ?? '';
      return { kind: apiError ? 'error' : 'assistant_message', actor: 'assistant', summary: text, text, attrs: {} };
    }
    case 'thinking':
    case 'redacted_thinking': {
      const thinking = asStr(block.thinking) ?? '';
      return { kind: 'thinking', actor: 'assistant', summary: thinking || '[redacted thinking]', attrs: {} };
    }
    case 'tool_use':
    case 'server_tool_use': {
      const name = asStr(block.name) ?? '(unnamed tool)';
      const id = asId(block.id);
      const attrs: Record<string, unknown> = {};
      if (TASK_TOOLS.has(name)) {
        const { description, subagentType } = taskFields(asObj(block.input));
        if (description !== undefined) attrs.description = description;
        if (subagentType !== undefined) attrs.subagentType = subagentType;
      }
      return {
        kind: 'tool_call',
        actor: 'assistant',
        toolName: name,
        summary: toolCallPreview(name, block.input),
        attrs,
        ...(id !== undefined && { ids: { toolCall: id } }),
      };
    }
    default: {
      // Server tool results (web_search_tool_result …) answer a server_tool_use in the same message.
      const toolUseId = asId(block.tool_use_id);
      if (toolUseId !== undefined && type.endsWith('_tool_result')) {
        return { kind: 'tool_result', actor: 'tool', ids: { toolCall: toolUseId }, toolStatus: 'ok', summary: toolResultText(block.content), attrs: {} };
      }
      return { kind: 'other', actor: 'assistant', summary: `[${type} block]`, attrs: { block: type } };
    }
  }
}
