// The permission policy: a pre_tool_use hook that refuses the tools able to change the machine
// (write, edit, bash) unless the user allowed them with `--allow`. Every other tool reads only.

import type { ControlHook } from './event-bus.js';
import type { RuntimeControls } from './runtime-events.js';

export const GUARDED_TOOLS = ['write', 'edit', 'bash'] as const;
export type GuardedTool = (typeof GUARDED_TOOLS)[number];

const GUARDED = new Set<string>(GUARDED_TOOLS);

/** Named so a refusal says which hook refused (ControlOutcome.blockedBy). */
export const PERMISSION_HOOK_NAME = 'permission-policy';

/** A pre_tool_use hook allowing the guarded tools in `allowed` and every unguarded tool. */
export function permissionHook(allowed: ReadonlySet<GuardedTool>): ControlHook<RuntimeControls['pre_tool_use']> {
  return function permissionPolicy(event) {
    const name = event.toolName;
    if (!GUARDED.has(name) || allowed.has(name as GuardedTool)) return { allow: true };
    const wanted = [...allowed, name as GuardedTool];
    const flag = GUARDED_TOOLS.filter((t) => wanted.includes(t)).join(',');
    return {
      allow: false,
      reason: `the ${name} tool is not allowed in this session; start it with --allow ${flag} to let the agent use it`,
    };
  };
}

/**
 * Read `--allow` values: each a comma list ("write,bash"), the flag possibly repeated. Blank items
 * are ignored. An unknown name throws an error naming it and the valid ones.
 */
export function parseAllowFlag(values: string | readonly string[] | undefined): Set<GuardedTool> {
  const out = new Set<GuardedTool>();
  const list = values === undefined ? [] : typeof values === 'string' ? [values] : values;
  for (const value of list) {
    for (const raw of value.split(',')) {
      const name = raw.trim().toLowerCase();
      if (name === '') continue;
      if (!GUARDED.has(name)) {
        throw new Error(`--allow: unknown tool "${raw.trim()}"; the valid names are ${GUARDED_TOOLS.join(', ')}`);
      }
      out.add(name as GuardedTool);
    }
  }
  return out;
}
