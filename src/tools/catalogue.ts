// The tool catalogue: `hindsight tools --json` as the build wrote it (scripts/write-tool-catalogue.ts
// runs after tsc), so `hindsight tools` and the CLI's unknown-tool message answer without loading
// the twenty tools and the schema converter. A catalogue older than the compiled registry beside it
// (a later tsc run) is ignored, and so is a missing or unreadable one: the caller then asks the
// registry itself, which is always right, only slower to load.

import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface CatalogueTool {
  tool_id: string;
  title: string;
  description: string;
  parameters: unknown;
  output: unknown;
}

export interface Catalogue {
  /** mtime (ms) of the compiled registry the catalogue was written from. */
  registry_mtime_ms: number;
  tools: CatalogueTool[];
}

/** Where the build writes the catalogue: beside this module (dist/src/tools/ when built). */
export const CATALOGUE_PATH = fileURLToPath(new URL('./tool-catalogue.json', import.meta.url));

/** The compiled registry the catalogue describes. */
export const REGISTRY_PATH = fileURLToPath(new URL('./registry.js', import.meta.url));

/** The catalogue when it is there and as new as the registry; null otherwise. */
export function readCatalogue(): Catalogue | null {
  try {
    const catalogue = JSON.parse(readFileSync(CATALOGUE_PATH, 'utf8')) as Catalogue;
    if (catalogue.registry_mtime_ms !== statSync(REGISTRY_PATH).mtimeMs || !Array.isArray(catalogue.tools)) return null;
    return catalogue;
  } catch {
    return null;
  }
}
