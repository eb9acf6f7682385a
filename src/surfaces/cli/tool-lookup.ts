// How the CLI finds tools without paying for all of them: the list from the build's catalogue, one
// tool from its own folder; the registry (every tool loaded) only when either is unavailable, e.g.
// when running from src/ under tests, or after a bare tsc that left the catalogue behind.

// Each function imports what it uses: `hindsight tool NAME` reads no catalogue.
import type { CatalogueTool } from '../../tools/catalogue.js';
import type { AnyTool } from '../../tools/tool.js';

/** Every tool's name, description and JSON Schemas: the `hindsight tools --json` list. */
export async function listTools(): Promise<CatalogueTool[]> {
  const { readCatalogue } = await import('../../tools/catalogue.js');
  const catalogue = readCatalogue();
  if (catalogue) return catalogue.tools;
  const { describeTools } = await import('../../tools/describe-tools.js');
  return describeTools().tools;
}

/** Every tool's name and description, cheaply (no schema conversion when the catalogue is stale). */
export async function toolSummaries(): Promise<{ name: string; description: string }[]> {
  const { readCatalogue } = await import('../../tools/catalogue.js');
  const catalogue = readCatalogue();
  if (catalogue) return catalogue.tools.map((t) => ({ name: t.tool_id, description: t.description }));
  const { TOOLS } = await import('../../tools/registry.js');
  return TOOLS.map((t) => ({ name: t.name, description: t.description }));
}

/** The tool called `name`, or undefined when there is none. */
export async function toolByName(name: string): Promise<AnyTool | undefined> {
  const { loadTool } = await import('../../tools/tool-loader.js');
  const own = await loadTool(name);
  if (own) return own;
  const { findTool } = await import('../../tools/registry.js');
  return findTool(name);
}
