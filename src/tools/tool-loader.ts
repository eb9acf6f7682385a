// One tool without the others: a tool named `some_name` is defined in ./some-name/index.ts (every
// tool follows this; tool-loader.test.ts holds it for the whole registry). A command that runs one
// tool loads that folder and what it imports, not all twenty tools — `hindsight tool NAME` and
// the CLI's views start in a fraction of the registry's time.
//
// The import is spelled as a template literal on purpose: the CLI's bundler (scripts/bundle-cli.mjs,
// esbuild) reads `./${folder}/index.js` as the pattern ./*/index.js and bundles every tool folder
// as a lazy chunk; any other spelling of the path would leave the bundle unable to find a tool.

import type { AnyTool } from './tool.js';

const TOOL_NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** The folder (under this one) that defines tool `name`. */
function toolFolder(name: string): string {
  return name.replaceAll('_', '-');
}

/** The module that defines tool `name`, relative to this folder. */
export function toolModule(name: string): string {
  return `./${toolFolder(name)}/index.js`;
}

/**
 * Whether `err` says the module is not there: Node's code when running from dist/src, or the
 * message of esbuild's lookup table when running from the bundle (a name outside the table).
 */
function isMissingModule(err: unknown): boolean {
  if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') return true;
  return err instanceof Error && err.message.startsWith('Module not found in bundle: ');
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
  const folder = toolFolder(name);
  try {
    exports = (await import(`./${folder}/index.js`)) as Record<string, unknown>;
  } catch (err) {
    if (isMissingModule(err)) return undefined;
    throw err;
  }
  return Object.values(exports).find((v): v is AnyTool => isTool(v) && v.name === name);
}

function isTool(v: unknown): v is AnyTool {
  return typeof v === 'object' && v !== null && typeof (v as AnyTool).name === 'string' && typeof (v as AnyTool).handler === 'function';
}
