// `agent-<id>.meta.json` beside a sub-agent file: who the sub-agent was (agentType), what it was
// asked (description) and which Task call spawned it (toolUseId) — facts of the child session.

import type { LineContext } from '../importer.js';
import { asId, asObj, asStr, clip, oneLine } from './json-access.js';

export function readMetaDocument(doc: unknown, ctx: LineContext): void {
  const meta = asObj(doc);
  const id = ctx.file.sessionId;
  if (!meta || id === undefined) return;
  const agentType = asStr(meta.agentType);
  const description = asStr(meta.description);
  const toolUseId = asId(meta.toolUseId);
  const attrs: Record<string, unknown> = {};
  if (agentType !== undefined) attrs.agentType = clip(agentType, 80);
  if (description !== undefined) attrs.description = clip(description, 200);
  if (toolUseId !== undefined) attrs.toolUseId = toolUseId;
  ctx.facts({
    id,
    format: 'claude-code',
    ...(agentType !== undefined && { agentName: clip(agentType, 80) }),
    ...(description !== undefined && description.trim() !== '' && { title: oneLine(description, 200) }),
    attrs,
  });
}
