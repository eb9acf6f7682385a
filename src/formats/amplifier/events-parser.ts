// events.jsonl → events: one record per line from Amplifier's logging hook (`ts` in nanoseconds,
// `lvl`, `event`, hoisted keys, `data`). Usage, tool outcomes and error levels come from here.

import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CorrelationIds } from '../../core/model.js';
import type { EventInput, LineContext, LineParser, SourceFile } from '../importer.js';
import { kindOf } from './event-kinds.js';
import { scanNumber, scanString, topLevelRegion } from './head-scan.js';
import { isSubagentId } from './layout.js';
import { asNumber, asRecord, asString, clip, previewJson } from './text.js';
import { outcomeOfObject } from './tool-result.js';
import { readUsage } from './usage.js';

/** Hoisted keys worth keeping on the event (small scalars only). */
function hoisted(obj: Record<string, unknown>): Record<string, unknown> {
  const attrs: Record<string, unknown> = {};
  const level = asString(obj.lvl);
  if (level) attrs.level = level;
  const status = asString(obj.status);
  if (status) attrs.status = status;
  const duration = asNumber(obj.duration_ms);
  if (duration !== undefined) attrs.durationMs = duration;
  const error = obj.error;
  if (error !== undefined && error !== null && error !== '') {
    const rec = asRecord(error);
    attrs.error = clip(asString(error) ?? asString(rec?.msg) ?? asString(rec?.message) ?? previewJson(error, 300), 300);
    const type = asString(rec?.type);
    if (type) attrs.errorType = type;
  }
  return attrs;
}

function correlation(obj: Record<string, unknown>, data: Record<string, unknown>): CorrelationIds {
  const ids: CorrelationIds = {};
  const request = asString(obj.request_id);
  if (request) ids.request = request;
  const toolCall = asString(data.tool_call_id);
  if (toolCall) ids.toolCall = toolCall;
  const agent = asString(data.sub_session_id);
  if (agent) ids.agent = agent;
  return ids;
}

/** A child id that is a plain folder name (never a path) and exists beside this session's folder. */
function childFolderExists(file: SourceFile, child: string): boolean {
  if (!/^[\w.:-]+$/.test(child) || child === '.' || child === '..') return false;
  try {
    return statSync(join(dirname(dirname(file.path)), child)).isDirectory();
  } catch {
    return false;
  }
}

export function createEventsParser(file: SourceFile, _resumeState?: unknown): LineParser {
  /** Children already linked, so the folder check runs once per child. */
  const linked = new Set<string>();

  /**
   * The parent's delegate record names the child's agent exactly ('foundation:explorer'); the
   * child's folder name only has it sanitised, and a running child has no metadata.json yet.
   * Only children whose folder exists are linked, so a missing folder never invents a session.
   */
  function linkChild(data: Record<string, unknown>, ctx: LineContext): void {
    const child = asString(data.sub_session_id);
    const agent = asString(data.agent);
    const parent = file.sessionId;
    if (!child || !agent || !parent || child === parent || linked.has(child)) return;
    linked.add(child);
    if (!childFolderExists(file, child)) return;
    ctx.facts({ id: child, format: 'amplifier', agentName: agent, parentId: parent, kind: isSubagentId(child) ? 'subagent' : 'fork' });
  }

  /** Describe one record; fills the fields its event name calls for. */
  function describe(obj: Record<string, unknown>, ctx: LineContext): EventInput {
    const name = asString(obj.event) ?? 'unknown';
    const data = asRecord(obj.data) ?? {};
    const attrs = hoisted(obj);
    const logged = asString(obj.session_id);
    if (logged && file.sessionId && logged !== file.sessionId) attrs.loggedSessionId = logged;
    const event: EventInput = {
      timestamp: asString(obj.ts),
      type: name,
      kind: kindOf(name, asString(obj.lvl)),
      ids: correlation(obj, data),
      attrs,
      summary: name,
    };
    switch (name) {
      case 'prompt:submit': {
        // The hook may have redacted the prompt; the transcript keeps the words as typed.
        event.actor = 'user';
        event.summary = clip(asString(data.prompt) ?? '');
        break;
      }
      case 'prompt:complete': {
        event.summary = clip(asString(data.response) ?? '');
        attrs.response = true;
        break;
      }
      case 'llm:response': {
        // One llm:response line is one call; request ids are absent in some flavours, so the
        // line is the key that can never merge two calls.
        const read = readUsage(data, `${file.relPath}#${ctx.lineNumber}`);
        const raw = asRecord(data.raw);
        const model = read?.usage.model ?? asString(data.model) ?? null;
        if (read) {
          event.usage = read.usage;
          attrs.rawInputTokens = read.rawInputTokens;
          if (read.costUsd !== undefined) attrs.costUsd = read.costUsd;
        }
        if (model) attrs.model = model;
        const stop = asString(raw?.stop_reason);
        if (stop) attrs.stopReason = stop;
        const messageId = asString(raw?.id);
        if (messageId) event.ids = { ...event.ids, message: messageId };
        event.actor = 'assistant';
        event.summary = read
          ? `${model ?? 'model'}: in ${read.usage.input} + cache read ${read.usage.cacheRead} + cache write ${read.usage.cacheWrite}, out ${read.usage.output}`
          : `${model ?? 'model'} response`;
        break;
      }
      case 'tool:pre': {
        const tool = asString(data.tool_name) ?? 'unknown';
        event.toolName = tool;
        event.actor = 'assistant';
        event.summary = `${tool} ${previewJson(data.tool_input, 200)}`;
        break;
      }
      case 'tool:post': {
        const tool = asString(data.tool_name) ?? 'unknown';
        const result = asRecord(data.result);
        const outcome = result ? outcomeOfObject(result) : { status: 'ok' as const, preview: previewJson(data.result, 300) };
        event.toolName = tool;
        event.toolStatus = outcome.status;
        event.actor = 'tool';
        event.summary = `${tool} ${outcome.status}: ${outcome.preview}`;
        break;
      }
      case 'tool:error': {
        const tool = asString(data.tool_name) ?? 'unknown';
        event.toolName = tool;
        event.toolStatus = 'error';
        event.actor = 'tool';
        event.summary = `${tool} failed: ${String(attrs.error ?? asString(data.error) ?? 'tool error')}`;
        break;
      }
      case 'session:start':
      case 'session:fork':
      case 'session:resume': {
        const parent = asString(data.parent) ?? asString(data.parent_id);
        if (parent) attrs.parentId = parent;
        break;
      }
      case 'content_block:end': {
        // The streamed copy of an assistant block; the transcript holds the message itself.
        const block = asRecord(data.block);
        const type = asString(block?.type);
        if (type) attrs.blockType = type;
        const text = asString(block?.text);
        event.summary = text !== undefined ? clip(text) : `${type ?? 'block'} ${asString(block?.name) ?? ''}`.trim();
        break;
      }
      case 'delegate:agent_spawned':
      case 'delegate:agent_completed': {
        const agent = asString(data.agent);
        if (agent) attrs.agent = agent;
        event.summary = `${name.slice('delegate:'.length).replace('_', ' ')}: ${agent ?? 'agent'}`;
        break;
      }
      default: {
        if (event.kind === 'error' || event.kind === 'warning') {
          const detail = attrs.error ?? asString(data.error_type) ?? asString(data.message);
          if (detail) event.summary = `${name}: ${String(detail)}`;
        }
      }
    }
    return event;
  }

  return {
    line(obj, ctx) {
      const event = describe(obj, ctx);
      ctx.emit(event);
      if (event.kind === 'subagent_start' || event.kind === 'subagent_end') linkChild(asRecord(obj.data) ?? {}, ctx);
      const parent = asString(event.attrs?.parentId);
      const sessionId = file.sessionId;
      // Only a non-null parent says anything: a fork's own events log parent_id null.
      if (parent && sessionId && parent !== sessionId) {
        ctx.facts({
          id: sessionId,
          format: 'amplifier',
          parentId: parent,
          kind: isSubagentId(sessionId) ? 'subagent' : 'fork',
        });
      }
    },
    hugeLine(head, ctx) {
      // ts, lvl, schema, event and the hoisted keys precede `data`; never parse the rest.
      const region = topLevelRegion(head, ['data']);
      const name = scanString(region, 'event', 128) ?? 'unknown';
      const level = scanString(region, 'lvl', 16);
      const attrs: Record<string, unknown> = { huge: true, bytes: ctx.byteLength };
      if (level) attrs.level = level;
      const duration = scanNumber(region, 'duration_ms');
      if (duration !== undefined) attrs.durationMs = duration;
      const request = scanString(region, 'request_id', 128);
      const event: EventInput = {
        timestamp: scanString(region, 'ts', 64),
        type: name,
        kind: kindOf(name, level),
        attrs,
        ids: request ? { request } : undefined,
        summary: `${name} (${ctx.byteLength} bytes; only its head was read)`,
      };
      // Usage sits at the end of `data` (keys are sorted), out of reach: say so rather than guess.
      if (event.kind === 'llm_call') attrs.usageUnavailable = true;
      ctx.emit(event);
    },
    snapshot() {
      return null;
    },
  };
}
