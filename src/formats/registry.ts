// Every format, defined once: one line per format below. Ingest, detection, the tools' format
// filters and the docs loop over this table. Loading is lazy so that naming the formats (a
// tool's schema, `--help`) costs nothing; ingest loads them all before it reads a file.

import { UnknownFormat } from '../core/errors.js';
import type { Importer } from './importer.js';
import { genericProfile, type FormatProfile } from './profile.js';

/** Detection order: the most specific layouts first. */
const LOADERS = {
  hindsight: async () => (await import('./hindsight/index.js')).hindsightFormat,
  'control-plane': async () => (await import('./control-plane/index.js')).controlPlane,
  amplifier: async () => (await import('./amplifier/index.js')).amplifier,
  opencode: async () => (await import('./opencode/index.js')).openCode,
  gemini: async () => (await import('./gemini/index.js')).gemini,
  codex: async () => (await import('./codex/index.js')).codex,
  'claude-code': async () => (await import('./claude-code/index.js')).claudeCode,
} satisfies Record<string, () => Promise<Importer>>;

export type KnownFormat = keyof typeof LOADERS;

/**
 * Each format's defaultRoots alone, from the small module that defines it, without the rest of the
 * format's folder (its parser, summariser, profile): a report on the default store asks every
 * format for its roots before each answer (src/surfaces/cli/refresh-stamp.ts), and loading the
 * seven folders for that cost more than the rest of the check. registry.test.ts holds each to be
 * the importer's own defaultRoots.
 */
const DEFAULT_ROOTS = {
  hindsight: async () => (await import('./hindsight/roots.js')).hindsightDefaultRoots,
  'control-plane': async () => (await import('./control-plane/discover.js')).rootsFromEnv,
  amplifier: async () => (await import('./amplifier/default-roots.js')).amplifierDefaultRoots,
  opencode: async () => (await import('./opencode/roots.js')).openCodeDefaultRoots,
  gemini: async () => (await import('./gemini/default-roots.js')).geminiDefaultRoots,
  codex: async () => (await import('./codex/roots.js')).codexDefaultRoots,
  'claude-code': async () => (await import('./claude-code/roots.js')).defaultClaudeRoots,
} satisfies Record<KnownFormat, () => Promise<Importer['defaultRoots']>>;

/** Every format id, in detection order. */
export const FORMATS = Object.keys(LOADERS) as [KnownFormat, ...KnownFormat[]];

const loaded = new Map<string, Importer>();

function isKnown(format: string): format is KnownFormat {
  return Object.hasOwn(LOADERS, format);
}

/** The importer of `format`, loading its folder on first use. */
export async function loadImporter(format: string): Promise<Importer> {
  if (!isKnown(format)) throw UnknownFormat(format, [...FORMATS]);
  let importer = loaded.get(format);
  if (!importer) {
    importer = await LOADERS[format]();
    loaded.set(format, importer);
  }
  return importer;
}

/** Every importer, in detection order. */
export async function loadImporters(): Promise<readonly Importer[]> {
  return Promise.all(FORMATS.map((f) => loadImporter(f)));
}

/**
 * The importer of `format` when it is already loaded (ingest loads them all first, and the
 * parsing loop is synchronous).
 */
export function importerFor(format: string): Importer {
  const found = loaded.get(format);
  if (found) return found;
  if (!isKnown(format)) throw UnknownFormat(format, [...FORMATS]);
  throw new Error(`the ${format} importer is not loaded yet: await loadImporters() before parsing`);
}

/** Every format's defaultRoots (as its importer's), in detection order, without loading the formats' folders. */
export async function loadDefaultRootFinders(): Promise<{ format: KnownFormat; defaultRoots: Importer['defaultRoots'] }[]> {
  return Promise.all(FORMATS.map(async (format) => ({ format, defaultRoots: await DEFAULT_ROOTS[format]() })));
}

/** The format whose layout `path` has, or null. */
export async function detectFormat(path: string): Promise<KnownFormat | null> {
  for (const importer of await loadImporters()) {
    if (await importer.detect(path)) return importer.format as KnownFormat;
  }
  return null;
}

/**
 * The profile of `format` (src/formats/profile.ts): the hooks tools call instead of branching on
 * the format id. A format this build does not know (a store written by a newer version) gets the
 * generic profile, so its sessions still read.
 */
export async function profileOf(format: string): Promise<FormatProfile> {
  return isKnown(format) ? (await loadImporter(format)).profile : genericProfile(format);
}

/** Every registered format with its label, in detection order (the viewer's format lists). */
export async function formatLabels(): Promise<{ id: KnownFormat; label: string }[]> {
  return (await loadImporters()).map((i) => ({ id: i.format as KnownFormat, label: i.profile.label }));
}

/** The profile of each format in `formats` (tools that read sessions of several formats at once). */
export async function profilesOf(formats: Iterable<string>): Promise<Map<string, FormatProfile>> {
  const unique = [...new Set(formats)];
  return new Map(await Promise.all(unique.map(async (f) => [f, await profileOf(f)] as const)));
}
