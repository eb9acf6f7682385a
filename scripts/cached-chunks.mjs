// Turns a chunk of the bundle into a script V8 can cache (src/surfaces/cli/chunk-cache.ts says why)
// and a small ES module left in the chunk's place, so every importer is unchanged:
//
//   chunks/report-<hash>.js            import declarations as they were; loadCachedChunk(…); export { … }
//   chunks/report-<hash>.script.js     (function (import, import.meta, imports) { 'use strict'; …code…; return [exports] })
//
// The code keeps its lines (a removed import declaration leaves its line breaks), so a stack trace's
// line in the script is the chunk's line. What a script cannot do the way a module does is refused
// here, at build time, rather than left to differ at run time:
// - an exported let or var that is assigned anywhere after its declaration (any binding of that
//   name, to be safe): the facade exports a copy taken once, which would not follow it;
// - top-level await, `export` forms other than rollup's closing `export { … }`;
// - a static import of a chunk that imports this chunk back (a cycle: its code would see the
//   exports before they exist), or of a binding its module assigns again later (the script is
//   handed the value once);
// - names the wrapper uses appearing in the code.
//
// Plain JavaScript: bundle-cli.mjs runs it after rollup.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { Script } from 'node:vm';
import { parseAst } from 'rollup/parseAst';

/** The wrapper's own names; the chunk's code must not use them. */
const LOAD = '__chunkImport';
const META = '__chunkMeta';
const IMPORTS = '__chunkImports';
const EXPORTS = '__chunkExports';
const LOADER = 'loadCachedChunk';

const fail = (file, message) => {
  throw new Error(`cached-chunks: ${file}: ${message}`);
};

/** Calls `visit(node, inFunction)` for every node under `node`. */
function walk(node, visit, inFunction = false) {
  if (!node || typeof node.type !== 'string') return;
  visit(node, inFunction);
  const nested = inFunction || /Function/.test(node.type) || node.type === 'StaticBlock';
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (Array.isArray(value)) for (const v of value) walk(v, visit, nested);
    else if (value && typeof value === 'object') walk(value, visit, nested);
  }
}

/** Every name assigned to (=, +=, ++, a for-in/of target without a declaration) anywhere in `ast`, whatever binding it names. */
function assignedNames(ast) {
  const names = new Set();
  const targets = (pattern) => walk(pattern, (n) => n.type === 'Identifier' && names.add(n.name));
  walk(ast, (node) => {
    if (node.type === 'AssignmentExpression') targets(node.left);
    else if (node.type === 'UpdateExpression') targets(node.argument);
    else if ((node.type === 'ForInStatement' || node.type === 'ForOfStatement') && node.left.type !== 'VariableDeclaration') targets(node.left);
  });
  return names;
}

/** Top-level declarations of `ast`: name → 'function' | 'class' | 'let' | 'var' | 'const'. */
function topLevelKinds(ast) {
  const declared = new Map();
  for (const node of ast.body) {
    if (node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') declared.set(node.id.name, node.type);
    else if (node.type === 'VariableDeclaration') for (const d of node.declarations) walk(d.id, (n) => n.type === 'Identifier' && declared.set(n.name, node.kind));
    else if ((node.type === 'ExportNamedDeclaration') && node.declaration?.type === 'VariableDeclaration') {
      for (const d of node.declaration.declarations) walk(d.id, (n) => n.type === 'Identifier' && declared.set(n.name, node.declaration.kind));
    }
  }
  return declared;
}

/** Whether the top-level binding `local` of `ast` can change after it is evaluated: a let or var assigned anywhere after its declaration (any binding of that name, to be safe). */
function movingIn(ast) {
  const declared = topLevelKinds(ast);
  const assigned = assignedNames(ast);
  return (local) => (declared.get(local) === 'let' || declared.get(local) === 'var') && assigned.has(local);
}

/** The names module `code` exports whose binding can change after it is evaluated (movingIn). */
function movingExports(code) {
  const ast = parseAst(code);
  const moving = movingIn(ast);
  const names = new Set();
  for (const node of ast.body) {
    if (node.type !== 'ExportNamedDeclaration') continue;
    if (node.declaration?.type === 'VariableDeclaration') {
      for (const d of node.declaration.declarations) walk(d.id, (n) => n.type === 'Identifier' && moving(n.name) && names.add(n.name));
    } else if (!node.source) {
      for (const sp of node.specifiers) if (moving(sp.local.name)) names.add(sp.exported.type === 'Identifier' ? sp.exported.name : sp.exported.value);
    }
  }
  return names;
}

/** `text` with each [start, end, replacement] applied (ranges do not overlap). */
function splice(text, edits) {
  let out = '';
  let at = 0;
  for (const [start, end, replacement] of [...edits].sort((a, b) => a[0] - b[0])) {
    out += text.slice(at, start) + replacement;
    at = end;
  }
  return out + text.slice(at);
}

/** Only the line breaks of `text`: what a removed declaration leaves, so later lines keep their numbers. */
const lineBreaks = (text) => text.replace(/[^\n]/g, '');

/**
 * The script and the facade for the chunk `code` of `file` (a name for errors). `scriptName` is
 * the script's file name beside the facade; `loaderSpecifier` the facade's import of chunk-cache.js.
 */
export function splitChunk(file, code, scriptName, loaderSpecifier) {
  for (const name of [LOAD, META, IMPORTS, EXPORTS, LOADER]) if (code.includes(name)) fail(file, `its code uses ${name}, a name the cached-chunk wrapper needs`);
  const ast = parseAst(code);
  const edits = [];
  const importDeclarations = [];
  const importedNames = [];
  let exported = null;
  for (const node of ast.body) {
    if (node.type === 'ImportDeclaration') {
      importDeclarations.push(code.slice(node.start, node.end));
      for (const s of node.specifiers) importedNames.push(s.local.name);
      edits.push([node.start, node.end, lineBreaks(code.slice(node.start, node.end))]);
    } else if (node.type === 'ExportNamedDeclaration' && !node.declaration && !node.source && exported === null) {
      exported = node.specifiers.map((s) => ({ local: s.local.name, name: s.exported.type === 'Identifier' ? s.exported.name : s.exported.value }));
      edits.push([node.start, node.end, lineBreaks(code.slice(node.start, node.end))]);
    } else if (/^Export/.test(node.type)) {
      fail(file, `${node.type} at offset ${node.start}: only one closing "export { … }" is supported`);
    }
  }
  const declared = topLevelKinds(ast);
  const moving = movingIn(ast);
  for (const { local } of exported ?? []) {
    if (!declared.has(local) && !importedNames.includes(local)) fail(file, `exports ${local}, which is not declared at its top level`);
    if (moving(local)) fail(file, `exports ${local}, a ${declared.get(local)} assigned after its declaration: the facade would export a copy that does not follow it`);
  }
  walk(ast, (node, inFunction) => {
    if (node.type === 'ImportExpression') {
      if (code.slice(node.start, node.start + 6) !== 'import') fail(file, `import() at offset ${node.start} is not spelled import(`);
      edits.push([node.start, node.start + 6, LOAD]);
    } else if (node.type === 'MetaProperty' && node.meta.name === 'import') {
      edits.push([node.start, node.end, META]);
    } else if (node.type === 'AwaitExpression' && !inFunction) {
      fail(file, `top-level await at offset ${node.start}`);
    } else if (node.type === 'ForOfStatement' && node.await && !inFunction) {
      fail(file, `top-level for await at offset ${node.start}`);
    }
  });
  const names = exported ?? [];
  // The wrapper's head and tail go on the first and last lines, so the code's lines keep their numbers.
  const head = `(function (${LOAD}, ${META}, ${IMPORTS}) { 'use strict'; const { ${importedNames.join(', ')} } = ${IMPORTS}; `;
  const tail = `\nreturn [${names.map((e) => e.local).join(', ')}];\n})\n`;
  const script = head + splice(code, edits) + tail;
  try {
    new Script(script, { filename: scriptName });
  } catch (err) {
    fail(file, `its script does not compile: ${err.message}`);
  }
  const exportLocals = names.map((_, i) => `${EXPORTS}${i}`);
  const facade = [
    `// The code of this chunk runs from ${scriptName} with V8's code cache (src/surfaces/cli/chunk-cache.ts; made by scripts/cached-chunks.mjs).`,
    ...importDeclarations,
    `import { ${LOADER} } from ${JSON.stringify(loaderSpecifier)};`,
    `const ${EXPORTS} = ${LOADER}(new URL(${JSON.stringify(`./${scriptName}`)}, import.meta.url), (specifier) => import(specifier), import.meta, { ${importedNames.join(', ')} });`,
    names.length > 0 ? `const ${exportLocals.map((l, i) => `${l} = ${EXPORTS}[${i}]`).join(', ')};` : '',
    names.length > 0 ? `export { ${names.map((e, i) => `${exportLocals[i]} as ${/^[A-Za-z_$][\w$]*$/.test(e.name) ? e.name : JSON.stringify(e.name)}`).join(', ')} };` : '',
    '',
  ].join('\n');
  return { script, facade };
}

/** The relative chunk files `code` imports statically (import declarations with a relative source). */
function staticChunkImports(code) {
  return parseAst(code)
    .body.filter((n) => (n.type === 'ImportDeclaration' || (n.type.startsWith('Export') && n.source)) && n.source.value.startsWith('.'))
    .map((n) => n.source.value);
}

/**
 * Rewrite the chunk `chunkFile` (relative to `bundleDir`, e.g. chunks/report-<hash>.js) as a facade
 * and its script. `loaderFile` is the compiled chunk-cache.js. Refuses a chunk that statically
 * imports a chunk importing it back, directly or through others: the facade hands the script the
 * imported bindings as they are when it runs, which in a cycle is before they exist.
 */
export function cacheChunk(bundleDir, chunkFile, loaderFile) {
  const path = join(bundleDir, chunkFile);
  const code = readFileSync(path, 'utf8');
  const self = chunkFile.split(sep).join('/');
  const importsOf = (file, text) => staticChunkImports(text).map((d) => posix.join(posix.dirname(file), d));
  const seen = new Set();
  const pending = importsOf(self, code).map((dep) => [dep, dep]);
  while (pending.length > 0) {
    const [file, via] = pending.pop();
    if (file === self) fail(self, `imports ${via}, which imports it back`);
    if (seen.has(file) || !file.endsWith('.js') || file.startsWith('..')) continue;
    seen.add(file);
    for (const next of importsOf(file, readFileSync(join(bundleDir, file), 'utf8'))) pending.push([next, via]);
  }
  // The facade hands the script each imported binding's value once; a binding its module assigns
  // again later would not follow. Refused like an exported let of the chunk itself.
  for (const node of parseAst(code).body) {
    if (node.type !== 'ImportDeclaration' || !node.source.value.startsWith('.')) continue;
    const dep = posix.join(posix.dirname(self), node.source.value);
    const moving = movingExports(readFileSync(join(bundleDir, dep), 'utf8'));
    for (const sp of node.specifiers) {
      const name = sp.type === 'ImportSpecifier' ? (sp.imported.type === 'Identifier' ? sp.imported.name : sp.imported.value) : null;
      if (sp.type === 'ImportNamespaceSpecifier' ? moving.size > 0 : moving.has(name ?? 'default')) {
        fail(self, `imports ${name ?? '* as ' + sp.local.name} from ${dep}, a binding that module assigns after its declaration: the script would keep the first value`);
      }
    }
  }
  const scriptName = chunkFile.split('/').pop().replace(/\.js$/, '.script.js');
  let loaderSpecifier = relative(dirname(path), loaderFile).split(sep).join('/');
  if (!loaderSpecifier.startsWith('.')) loaderSpecifier = `./${loaderSpecifier}`;
  const { script, facade } = splitChunk(chunkFile, code, scriptName, loaderSpecifier);
  writeFileSync(join(dirname(path), scriptName), script);
  writeFileSync(path, facade);
}
