// A rollup plugin for the CLI bundle (bundle-cli.mjs): each `import … from 'node:…'` of a chunk
// becomes a constant taken from process.getBuiltinModule.
//
// Why: an ES module import of a built-in makes Node build an ES module facade of it, reading every
// export once. For `node:fs` that means its lazy getters too (fs.promises, ReadStream…), which load
// Node's promise API, readline and the whole streams stack: ~20 more internal modules compiled at
// start-up for a command that only stats files. A warm `usage` report imported ten built-ins this
// way; the facades were ~4% of its start-up profile. process.getBuiltinModule (Node 20.16+, 22.3+)
// hands back the module's own exports object, as require() does, with nothing built.
//
// The constants take the import's place, with the same line breaks (stack traces keep their lines).
// Named imports of built-ins are not live bindings then: no built-in reassigns an export, and
// nothing in the CLI patches one. bin/hindsight runs the bundle only on a Node that has
// process.getBuiltinModule; on an older one it runs the compiled modules (dist/src) instead.
//
// Plain JavaScript: bundle-cli.mjs runs it inside rollup.

import { builtinModules } from 'node:module';
import { parseAst } from 'rollup/parseAst';

const BUILTINS = new Set(builtinModules);

/** Whether an import source names a Node built-in ('node:fs', 'fs', 'fs/promises'). */
export const isBuiltin = (source) => source.startsWith('node:') || BUILTINS.has(source);

/** The statement that replaces one import declaration of a built-in (without its line breaks). */
function replacement(node) {
  const id = JSON.stringify(node.source.value.startsWith('node:') ? node.source.value : `node:${node.source.value}`);
  const whole = node.specifiers.filter((s) => s.type !== 'ImportSpecifier').map((s) => s.local.name);
  const named = node.specifiers.filter((s) => s.type === 'ImportSpecifier');
  if (whole.length === 0 && named.length === 0) return ''; // `import 'node:fs'`: loading it is all it did
  const target = whole[0] ?? `process.getBuiltinModule(${id})`;
  const out = whole.map((name, i) => `const ${name} = ${i === 0 ? `process.getBuiltinModule(${id})` : whole[0]};`);
  if (named.length > 0) {
    const fields = named.map((s) => {
      const imported = s.imported.type === 'Identifier' ? s.imported.name : JSON.stringify(s.imported.value);
      return imported === s.local.name ? imported : `${imported}: ${s.local.name}`;
    });
    out.push(`const { ${fields.join(', ')} } = ${target};`);
  }
  return out.join(' ');
}

/** `code` with every import declaration of a built-in replaced (exported for its test). */
export function rewriteBuiltinImports(code) {
  const ast = parseAst(code);
  const edits = ast.body.filter((n) => n.type === 'ImportDeclaration' && isBuiltin(n.source.value));
  let out = code;
  // From the end, so earlier offsets stay valid.
  for (const node of edits.reverse()) {
    const breaks = code.slice(node.start, node.end).split('\n').length - 1;
    out = out.slice(0, node.start) + replacement(node) + '\n'.repeat(breaks) + out.slice(node.end);
  }
  return out;
}

/** The rollup plugin: rewrites each rendered chunk. */
export const builtinImports = {
  name: 'hindsight-builtin-imports',
  renderChunk(code) {
    const out = rewriteBuiltinImports(code);
    return out === code ? null : { code: out, map: null };
  },
};
