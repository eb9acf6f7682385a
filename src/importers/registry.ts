// Every importer, defined once; ingest, detection and docs loop over this list.

import { FORMATS, type Format } from '../core/model.js';
import { UnknownFormat } from '../core/errors.js';
import { amplifier } from './amplifier/index.js';
import { claudeCode } from './claude-code/index.js';
import { controlPlane } from './control-plane/index.js';
import type { Importer } from './importer.js';

/** Detection order: the most specific layouts first. */
export const IMPORTERS: readonly Importer[] = [controlPlane, amplifier, claudeCode];

export function importerFor(format: string): Importer {
  const found = IMPORTERS.find((i) => i.format === format);
  if (!found) throw UnknownFormat(format, [...FORMATS]);
  return found;
}

/** The format whose layout `path` has, or null. */
export async function detectFormat(path: string): Promise<Format | null> {
  for (const importer of IMPORTERS) {
    if (await importer.detect(path)) return importer.format;
  }
  return null;
}
