// Meta-tests over the registry: each tool is defined once and completely — examples that validate,
// a command line whose every word and flag sets an argument the tool has, a GET view whose path
// and aliases name its arguments — and no two tools claim the same command, flag spelling or route.

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { describeCommands } from './describe-tools.js';
import { TOOLS } from './registry.js';
import { toolModule } from './tool-loader.js';

/** The tool's input object (its schema may be wrapped in refinements). */
function inputShape(schema: z.ZodTypeAny): Record<string, z.ZodTypeAny> {
  let s: z.ZodTypeAny = schema;
  while (s instanceof z.ZodEffects) s = s.innerType();
  if (!(s instanceof z.ZodObject)) throw new Error('a tool input must be an object schema');
  return s.shape as Record<string, z.ZodTypeAny>;
}

const folderOf = (name: string) => resolve(import.meta.dirname, toolModule(name), '..');

describe.each(TOOLS.map((t) => [t.name, t] as const))('%s', (name, tool) => {
  it('has examples whose arguments its input schema accepts, at least one answering ok', () => {
    expect(tool.examples.length).toBeGreaterThan(0);
    expect(tool.examples.some((e) => e.status === 'ok')).toBe(true);
    for (const e of tool.examples) {
      const parsed = tool.input.safeParse(e.args);
      expect(parsed.success, `${e.about}: ${parsed.success ? '' : parsed.error.message}`).toBe(true);
      expect(e.about).toMatch(/^[A-Z].*\.$/);
    }
  });

  it('keeps its command line and GET view in its own folder (cli.ts, http.ts)', () => {
    expect(existsSync(resolve(folderOf(name), 'examples.ts'))).toBe(true);
    expect(existsSync(resolve(folderOf(name), 'cli.ts'))).toBe(tool.cli !== undefined);
    expect(existsSync(resolve(folderOf(name), 'http.ts'))).toBe(tool.http !== undefined);
  });
});

describe.each(TOOLS.filter((t) => t.cli).map((t) => [t.cli!.command, t] as const))('the command %s', (_command, tool) => {
  const shape = inputShape(tool.input);

  it('sets only arguments it has, from flags declared once', () => {
    const cli = tool.cli!;
    const args = [...(cli.positionals ?? []).map((p) => p.arg), ...cli.flags.flatMap((f) => (f.arg ? [f.arg] : [])), ...Object.keys(cli.fixed ?? {})];
    for (const arg of args) expect(Object.keys(shape), `${cli.command} sets ${arg}`).toContain(arg);
    const names = cli.flags.map((f) => f.name);
    expect(new Set(names).size, `${cli.command} declares a flag twice`).toBe(names.length);
    for (const f of cli.flags) {
      expect(f.name, cli.command).toMatch(/^[a-z][a-z0-9-]*$/);
      if (f.short !== undefined) expect(f.short).toMatch(/^[a-zA-Z]$/);
      expect(f.help.length, `--${f.name} needs help text`).toBeGreaterThan(0);
      if (f.sets !== undefined) expect(f.type, `--${f.name}: only a boolean flag sets a fixed value`).toBe('boolean');
    }
    // Only the last positional may take the remaining words.
    expect((cli.positionals ?? []).slice(0, -1).some((p) => p.variadic)).toBe(false);
  });
});

describe.each(TOOLS.filter((t) => t.http).map((t) => [t.http!.path, t] as const))('the GET view %s', (_path, tool) => {
  const shape = inputShape(tool.input);

  it('has a GET view naming its own arguments, and only if it changes nothing', () => {
    const view = tool.http!;
    expect(tool.destructive).toBeFalsy();
    expect(view.path).toMatch(/^\/api\//);
    for (const [param, arg] of Object.entries(view.pathArgs ?? {})) {
      expect(view.path).toContain(`:${param}`);
      expect(Object.keys(shape)).toContain(arg);
    }
    for (const arg of Object.values(view.aliases ?? {})) expect(Object.keys(shape)).toContain(arg);
  });
});

describe('across tools', () => {
  it('no two tools share a command or a GET path', () => {
    const commands = TOOLS.flatMap((t) => (t.cli ? [t.cli.command] : []));
    expect(new Set(commands).size).toBe(commands.length);
    const paths = TOOLS.flatMap((t) => (t.http ? [t.http.path] : []));
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('a flag name means one type (and one short letter) on every command', () => {
    const seen = new Map<string, string>();
    for (const t of TOOLS) {
      for (const f of t.cli?.flags ?? []) {
        const kind = `${f.type}${f.short ? ` -${f.short}` : ''}`;
        expect(seen.get(f.name) ?? kind, `--${f.name} on ${t.cli!.command}`).toBe(kind);
        seen.set(f.name, kind);
      }
    }
  });

  it('describes each command as data: no hook, placeholders from the arguments\' choices', () => {
    const commands = describeCommands();
    expect(commands.map((c) => c.tool)).toEqual(TOOLS.filter((t) => t.cli).map((t) => t.name));
    const json = JSON.parse(JSON.stringify(commands)) as typeof commands;
    expect(json).toEqual(commands);
    const usage = commands.find((c) => c.command === 'usage')!;
    expect(usage.positionals[0]!.display).toBe('daily|weekly|monthly|session|project|blocks');
    expect(commands.find((c) => c.command === 'export')!.flags.find((f) => f.name === 'as')!.value).toBe('replay|markdown|jsonl|otlp');
  });
});
