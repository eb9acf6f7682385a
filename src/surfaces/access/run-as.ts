// Running a tool for a principal: a team token's tools see a scoped store; a read-only token gets
// destructive tools refused and every answer redacted, exact evidence included (decisions.md).

import { toErrorShape } from '../../core/errors.js';
import { redactValue } from '../../core/redact.js';
import type { Store } from '../../store/store.js';
import { runTool, type AnyTool, type ToolContext, type ToolResult } from '../../tools/tool.js';
import { MachineToolRefused, ReadOnlyToken } from './access-errors.js';
import { isReadOnly, principalProjects, type Principal } from './principal.js';
import { redactedEvidence } from './scope/redacted-evidence.js';
import { scopedStore } from './scope/scoped-store.js';

/** The store a principal sees: the whole store, or its projects only (with redacted evidence when read-only). */
export function storeFor(principal: Principal, store: Store): Store {
  const projects = principalProjects(principal);
  const scoped = projects === null ? store : scopedStore(store, projects);
  return isReadOnly(principal) ? redactedEvidence(scoped) : scoped;
}

/** True when the tool's arguments have a `redact` switch (its JSON Schema has the property). */
function takesRedact(tool: AnyTool): boolean {
  const shape = (tool.input as { shape?: Record<string, unknown> }).shape;
  return shape !== undefined && 'redact' in shape;
}

/**
 * Redact an envelope for a read-only principal. `raw_base64` (exact bytes of a line that is not
 * valid UTF-8) cannot be redacted as text, so it is dropped; its `raw` text is redacted instead.
 */
export function redactEnvelope<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => redactEnvelope(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== 'raw_base64') out[k] = redactEnvelope(v);
    return out as T;
  }
  return redactValue(value);
}

/**
 * runTool as `principal` would: on its store, within its rights.
 *
 * @example await runToolAs({ kind: 'team', tokenId: 'tk_1', user: 'ana', projects: ['-home-ana-app'], readOnly: true }, tool, {}, { store });
 */
export async function runToolAs(principal: Principal, tool: AnyTool, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  const readOnly = isReadOnly(principal);
  const refusal = principal.kind === 'team' && tool.machineLocal ? MachineToolRefused(tool.name) : readOnly && tool.destructive ? ReadOnlyToken(tool.name) : null;
  if (refusal) {
    const shape = toErrorShape(refusal);
    return { status: 'error', error: shape.message, code: shape.code };
  }
  const forced = readOnly && takesRedact(tool) && args && typeof args === 'object' && !Array.isArray(args) ? { ...args, redact: true } : args;
  const result = await runTool(tool, forced, { ...ctx, store: storeFor(principal, ctx.store) });
  return readOnly ? redactEnvelope(result) : result;
}
