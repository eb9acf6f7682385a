#!/usr/bin/env node
// Bundles the compiled CLI (dist/src/, written by tsc just before) into dist/bundle/, the code
// bin/hindsight runs. Why: Node 20 pays a fixed cost for every ES module it loads (~0.25 ms), and
// `hindsight tool list_sessions` loaded ~75 of them; bundled, it loads ~25 and starts within 2× a
// bare `node -e 0` (bench/startup-bench.ts).
//
// Why rollup and not esbuild (both come with vite): a command loads the chunks of main.js and then
// of each module it imports lazily. Rollup knows that whatever main.js imports statically is
// already loaded when a lazy import runs, so it keeps those modules in main's own chunks; esbuild
// splits them by every combination of lazy imports that reaches them, and the list_sessions call
// still loaded ~55 chunks, no faster than the unbundled tree (measured on this project).
//
// What stays as it was:
// - Laziness. Every dynamic import() is a chunk boundary, so a command loads only its own code:
//   a tool's folder (tool-loader's import(toolModule(name)), expanded below into one import per
//   folder that exists), a format (registry.ts), an engine, a server.
// - Names a reader (and test/e2e/cli-startup.test.ts) can follow: the entry is
//   dist/bundle/surfaces/cli/main.js and each tool's chunk dist/bundle/tools/<folder>/index.js.
// - Dependencies load from node_modules, one copy each, except zod: every tool call needs it and
//   its ESM build is ten modules. Bundling it is safe because the packages that also import zod
//   (zod-to-json-schema, the MCP SDK) never test our schemas with instanceof.
// - Files found beside a module. Each compiled module's import.meta.url becomes the URL of that
//   module in dist/src/, so the tool catalogue (dist/src/tools/*.json), grep's search worker
//   (which runs unbundled from dist/src/) and the package root are found where tsc put them.
//
// Plain JavaScript: it runs right after tsc, from `npm run build`.

import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rollup } from 'rollup';
import { bundleSqliteDriver } from './bundle-sqlite-driver.mjs';
import { cacheChunk } from './cached-chunks.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const COMPILED = join(ROOT, 'dist', 'src');
const MAIN = join(COMPILED, 'surfaces', 'cli', 'main.js');
const TOOLS = join(COMPILED, 'tools');
const TOOL_LOADER = join(TOOLS, 'tool-loader.js');
/** Where the bundle goes; bin/hindsight runs its surfaces/cli/main.js. */
const BUNDLE_DIR = join(ROOT, 'dist', 'bundle');
/**
 * Chunks run as scripts with V8's code cache (cached-chunks.mjs, src/surfaces/cli/chunk-cache.ts),
 * by chunk name or file name: what a warm report loads besides main's own — `report`, the largest
 * (~14 ms of compiling in a warm `usage daily` before), the tool loader, the usage tool and the small
 * chunk it shares with other tools (test/e2e/cli-startup.test.ts holds this list to what a warm
 * report loads). main.js and main-deps stay modules: cached, they were no
 * faster, and `--help` would pay for the loader (docs/benchmarks.md, "V8 code cache").
 */
const CACHED_CHUNKS = ['report', 'tool-loader', 'json-schema', 'tools/usage-report/index.js'];
/** The compiled loader the cached chunks' facades import. */
const CHUNK_CACHE_LOADER = join(COMPILED, 'surfaces', 'cli', 'chunk-cache.js');
/** npm packages bundled in rather than loaded from node_modules (see above). */
const BUNDLED_PACKAGES = new Set(['zod']);
/**
 * Chunks smaller than this (bytes) are merged into a chunk that is loaded with them anyway: rollup
 * otherwise leaves a chunk for each small module shared by a different set of lazy imports. 50 KB
 * took the list_sessions call from 44 to 34 loaded modules (zod not yet bundled); larger values
 * changed nothing.
 */
const MIN_CHUNK_BYTES = 50_000;
/**
 * What a report on the default store runs once main.js has parsed its command line (refresh.ts: the
 * up-to-date check, the store, the tool runner and the views), relative to dist/src/; with what they
 * import statically, and the formats' roots modules (registry.js's lazy imports other than the
 * formats' folders), it is bundled as one chunk, `report`. Left to the chunking above it came as
 * ~17 chunks of every size, each read, resolved and linked on its own: one chunk took the warm
 * `usage daily` from 22 files to 7 and ~9 % of its CPU (docs/benchmarks.md, "Warm reports").
 */
const REPORT_PATH = ['surfaces/cli/tool-command.js', 'surfaces/cli/refresh.js', 'surfaces/cli/refresh-stamp.js', 'store/open.js', 'store/sqlite/sqlite-store.js'];
/** Small modules the report path imports that lighter commands load too (`tools` lists the tools through tool-lookup): kept with main's. */
const WITH_MAIN = ['surfaces/cli/tool-lookup.js'];
/** Where the formats' roots modules are imported from (lazily, one per format). */
const REGISTRY = join(COMPILED, 'formats', 'registry.js');
/** tool-loader's import of a tool's folder: import(toolModule(name)), toolModule giving ./<folder>/index.js. */
const TOOL_IMPORT = /\bimport\((toolModule\(\w+\))\)/g;

const toPosix = (path) => path.split(sep).join('/');
const isBare = (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0');
const packageOf = (id) => id.split('/').slice(0, id.startsWith('@') ? 2 : 1).join('/');

/**
 * A lookup standing for `import(specifier)` in a module of `dir`, where `specifier` (an expression)
 * gives ./<folder>/index.js: one literal import per folder that has an index.js, so each becomes a
 * chunk; any other path is rejected as Node rejects a missing module (code ERR_MODULE_NOT_FOUND),
 * which the caller already handles.
 */
function folderLookup(dir, specifier) {
  const folders = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'index.js')));
  const cases = folders.map((e) => `case ${JSON.stringify(`./${e.name}/index.js`)}: return import(${JSON.stringify(`./${e.name}/index.js`)});`);
  const missing = 'Object.assign(new Error(`Cannot find module ${path} in the bundled CLI`), { code: "ERR_MODULE_NOT_FOUND" })';
  return `((path) => { switch (path) { ${cases.join(' ')} default: return Promise.reject(${missing}); } })(${specifier})`;
}

/** `code` with `edit` applied to each line that is not a comment line (tsc keeps comments, which name these imports). */
function outsideComments(code, edit) {
  return code
    .split('\n')
    .map((line) => (/^\s*(\/\/|\/\*|\*)/.test(line) ? line : edit(line)))
    .join('\n');
}

const hindsightModules = {
  name: 'hindsight-modules',
  resolveId(id) {
    // Bundled packages resolve as Node would resolve them from the repository.
    if (isBare(id) && BUNDLED_PACKAGES.has(packageOf(id))) return fileURLToPath(import.meta.resolve(id));
    return null;
  },
  transform(code, id) {
    if (!id.startsWith(COMPILED + sep)) return null;
    const expanded = outsideComments(code, (line) => line.replace(TOOL_IMPORT, (_, specifier) => folderLookup(dirname(id), specifier)));
    if (id === TOOL_LOADER && expanded === code) this.error(`${relative(ROOT, id)} no longer imports a tool as import(toolModule(name)); update TOOL_IMPORT in scripts/bundle-cli.mjs`);
    // A relative path built at run time would resolve against the chunk's folder, which is not the
    // module's: fail here rather than at run time. (A computed package name, as preset-secrets'
    // import(PRESET), resolves the same from any folder of the package.)
    outsideComments(expanded, (line) => {
      const other = /\bimport\((`\.|['"]\.[^'"]*['"]\s*\+)/.exec(line);
      if (other) this.error(`${relative(ROOT, id)} imports a relative path built at run time ("${line.slice(other.index, other.index + 40)}…"); scripts/bundle-cli.mjs expands only tool-loader's import(toolModule(name))`);
      return line;
    });
    return expanded === code ? null : { code: expanded, map: null };
  },
  resolveImportMeta(property, { chunkId, moduleId }) {
    if (!moduleId.startsWith(COMPILED + sep)) return null;
    if (property !== 'url') this.error(`${relative(ROOT, moduleId)} uses import.meta.${property}; scripts/bundle-cli.mjs maps only import.meta.url to the module's place in dist/src/`);
    const path = toPosix(relative(dirname(join(BUNDLE_DIR, chunkId)), moduleId));
    return `new URL(${JSON.stringify(path)}, import.meta.url).href`;
  },
};

/**
 * rollup's manualChunks: the report path (REPORT_PATH) in chunk `report`, and what main.js imports
 * statically in chunk `main-deps`. The second keeps `--help` and `tools` light: rollup merges a small
 * chunk into any chunk it can without changing which side effects run (experimentalMinChunkSize),
 * and without it main's small shared modules went into `report`, which every command then loaded.
 * A module both need stays with main (loaded first anyway).
 */
function reportChunks() {
  let chunkOf = null;
  const closure = (ids, getModuleInfo, into = new Set()) => {
    const pending = [...ids];
    while (pending.length > 0) {
      const id = pending.pop();
      if (into.has(id) || !id.startsWith(COMPILED + sep)) continue;
      into.add(id);
      pending.push(...(getModuleInfo(id)?.importedIds ?? []));
    }
    return into;
  };
  return (id, { getModuleInfo }) => {
    if (!chunkOf) {
      const compiled = (paths) => paths.map((p) => join(COMPILED, ...p.split('/')));
      const mainDeps = closure([MAIN, ...compiled(WITH_MAIN)], getModuleInfo);
      mainDeps.delete(MAIN);
      const roots = (getModuleInfo(REGISTRY)?.dynamicallyImportedIds ?? []).filter((m) => !m.endsWith(`${sep}index.js`));
      const entries = compiled(REPORT_PATH);
      for (const entry of [...entries, ...compiled(WITH_MAIN)]) if (!getModuleInfo(entry)) throw new Error(`bundle-cli: ${relative(ROOT, entry)} (REPORT_PATH, WITH_MAIN) is not part of the CLI any more; update those lists`);
      if (roots.length === 0) throw new Error('bundle-cli: formats/registry.js imports no roots module lazily any more; update reportChunks');
      const report = closure([...entries, ...roots], getModuleInfo);
      chunkOf = new Map();
      for (const m of report) if (!mainDeps.has(m)) chunkOf.set(m, 'report');
      for (const m of mainDeps) chunkOf.set(m, 'main-deps');
    }
    return chunkOf.get(id);
  };
}

/** dist/bundle/tools/<folder>/index.js for a tool's chunk; chunks/<name>-<hash>.js for the rest. */
function chunkFileName(chunk) {
  const facade = chunk.facadeModuleId;
  if (facade && facade.startsWith(TOOLS + sep) && facade.endsWith(`${sep}index.js`) && dirname(dirname(facade)) === TOOLS) {
    return `tools/${toPosix(relative(TOOLS, facade))}`;
  }
  return 'chunks/[name]-[hash].js';
}

export async function bundleCli() {
  if (!existsSync(MAIN)) throw new Error(`bundle-cli: ${relative(ROOT, MAIN)} is missing: run tsc first (npm run build does both).`);
  const bundle = await rollup({
    input: { 'surfaces/cli/main': MAIN },
    // main.js's own code goes into the entry file, not a chunk behind a one-line facade (one
    // module fewer for every command); it only adds exports nobody imports.
    preserveEntrySignatures: 'allow-extension',
    plugins: [hindsightModules],
    external: (id) => isBare(id) && !BUNDLED_PACKAGES.has(packageOf(id)),
    // A warning (a missing export, an unresolved import) means a broken bundle: fail the build.
    // Info logs (the chunk-merging statistics) are not for the build's reader.
    onLog: (level, log) => {
      if (level === 'warn') throw new Error(`bundle-cli: ${log.message}`);
    },
  });
  try {
    rmSync(BUNDLE_DIR, { recursive: true, force: true });
    const { output } = await bundle.write({
      dir: BUNDLE_DIR,
      format: 'es',
      entryFileNames: '[name].js',
      chunkFileNames: chunkFileName,
      manualChunks: reportChunks(),
      experimentalMinChunkSize: MIN_CHUNK_BYTES,
    });
    if (!existsSync(CHUNK_CACHE_LOADER)) throw new Error(`bundle-cli: ${relative(ROOT, CHUNK_CACHE_LOADER)} is missing: run tsc first`);
    for (const name of CACHED_CHUNKS) {
      const chunk = output.find((c) => c.type === 'chunk' && (c.name === name || c.fileName === name));
      // Rollup regroups shared modules as the code changes (a chunk may fold into another): a
      // missing name costs that chunk its cache, never the build. test/e2e/cli-startup.test.ts
      // holds every chunk a warm report loads to be cached, so the list is kept up to date there.
      if (!chunk) {
        console.warn(`bundle-cli: no chunk named or written as ${name} (CACHED_CHUNKS): not cached; update the list`);
        continue;
      }
      cacheChunk(BUNDLE_DIR, chunk.fileName, CHUNK_CACHE_LOADER);
    }
    // better-sqlite3's JavaScript as one file beside the chunks (bundle-sqlite-driver.mjs says why).
    bundleSqliteDriver(BUNDLE_DIR);
  } finally {
    await bundle.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    await bundleCli();
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
