// One tool without the others: a tool named `some_name` is defined in ./some-name/index.ts (every
// tool follows this; tool-loader.test.ts holds it for the whole registry). A command that runs one
// tool loads that folder and what it imports, not all twenty tools — `hindsight tool NAME` and
// the CLI's views start in a fraction of the registry's time.
//
// The import is spelled `import(toolModule(name))` on purpose: the CLI's bundler
// (scripts/bundle-cli.mjs) expands exactly that call into one lazy chunk per tool folder. (A
// template literal here would be read by vitest's vite as a glob of ./*/index.js, which matches
// no .ts source.)

import type { AnyTool } from './tool.js';

const TOOL_NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** The module that defines tool `name`, relative to this folder. */
export function toolModule(name: string): string {
  return `./${name.replaceAll('_', '-')}/index.js`;
}

/**
 * The tool called `name`, loading only its own modules; undefined when no module of that name
 * defines it (the caller then looks in the registry, which knows every tool).
 *
 * @example const tool = await loadTool('list_sessions');
 */
export async function loadTool(name: string): Promise<AnyTool | undefined> {
  if (!TOOL_NAME.test(name)) return undefined;
  let exports: Record<string, unknown>;
  try {
    exports = (await import(toolModule(name))) as Record<string, unknown>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') return undefined;
    throw err;
  }
  return Object.values(exports).find((v): v is AnyTool => isTool(v) && v.name === name);
}

function isTool(v: unknown): v is AnyTool {
  return typeof v === 'object' && v !== null && typeof (v as AnyTool).name === 'string' && typeof (v as AnyTool).handler === 'function';
}
