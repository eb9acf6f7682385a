// Team scoping (issue 17, target 5): p50 of the tools a team token calls, run through
// scopedStore(store, [one or two projects]), against the same tool unscoped with the same arguments
// on the same store, calls interleaved so that both see the same machine. With --before DIST, the
// same calls are also made through another build's modules (dist/ of an older commit) on its own
// handle of the same store, interleaved with this build's: before and after in one run.
//
// Standalone: node dist/bench/scope-bench.js DB [--calls N] [--projects a,b] [--before DIST]
// DB is a SQLite path or a postgres:// URL. Without --projects: the largest project, then the two
// largest. Answers kept per store version (usage_report, inspect_metrics, search_sessions) are
// computed on every call on both sides: the unscoped store is seen without its dataVersion, as a
// scoped store (a new view per request) always is.

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { scopedStore } from '../src/surfaces/access/scope/scoped-store.js';
import { findTool } from '../src/tools/registry.js';
import { runTool } from '../src/tools/tool.js';
import type { Figure } from './figure.js';
import { percentile } from './measure.js';

/** What a build offers the bench: its store, its tools, its scoped view. */
interface Build {
  label: 'before' | 'after';
  store: Store;
  run(tool: string, args: Record<string, unknown>, store: Store): Promise<{ status: string; error?: string }>;
  scoped(store: Store, projects: readonly string[]): Store;
}

interface Call {
  label: string;
  tool: string;
  args: Record<string, unknown>;
}

/** This build. */
async function thisBuild(db: string): Promise<Build> {
  return {
    label: 'after',
    store: await openStore({ db }),
    run: (tool, args, store) => runTool(findTool(tool)!, args, { store }),
    scoped: scopedStore,
  };
}

/** Another build's modules (its dist/), loaded beside this one's. */
async function otherBuild(dist: string, db: string): Promise<Build> {
  const load = (path: string) => import(pathToFileURL(resolve(dist, path)).href);
  const [open, registry, tool, scope] = await Promise.all([
    load('src/store/open.js'),
    load('src/tools/registry.js'),
    load('src/tools/tool.js'),
    load('src/surfaces/access/scope/scoped-store.js'),
  ]);
  return {
    label: 'before',
    store: await open.openStore({ db }),
    run: (name, args, store) => tool.runTool(registry.findTool(name), args, { store }),
    scoped: scope.scopedStore,
  };
}

/** The store without its data version: every answer computed, as through a scoped view. */
function uncached(store: Store): Store {
  return Object.create(store, { dataVersion: { value: undefined } }) as Store;
}

/** Projects by session count, largest first, and a word of the largest session's first message. */
async function corpusFacts(store: Store): Promise<{ projects: string[]; word: string }> {
  const count = new Map<string, number>();
  let best = { events: -1, first: '' };
  for (let offset = 0; ; offset += 500) {
    const { sessions } = await store.listSessions({ limit: 500, offset });
    for (const s of sessions) {
      if (s.project !== null) count.set(s.project, (count.get(s.project) ?? 0) + 1);
      if (s.eventCount > best.events) best = { events: s.eventCount, first: s.firstUserMessage ?? '' };
    }
    if (sessions.length < 500) break;
  }
  const projects = [...count].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).map(([p]) => p);
  return { projects, word: /[A-Za-z]{6,}/.exec(best.first)?.[0] ?? 'error' };
}

function callsFor(word: string): Call[] {
  return [
    { label: 'list_sessions', tool: 'list_sessions', args: { limit: 20 } },
    { label: 'search_sessions', tool: 'search_sessions', args: { query: word, limit: 20 } },
    { label: 'usage_report', tool: 'usage_report', args: { group_by: 'daily' } },
    { label: 'inspect_metrics', tool: 'inspect_metrics', args: { view: 'stats' } },
    { label: 'sources_files', tool: 'sources', args: { section: 'files', limit: 50 } },
    { label: 'sources_defects', tool: 'sources', args: { limit: 50 } },
  ];
}

async function timeOne(call: () => Promise<{ status: string; error?: string }>, what: string): Promise<number> {
  const t0 = performance.now();
  const r = await call();
  JSON.stringify(r); // every surface serialises the envelope
  const ms = performance.now() - t0;
  if (r.status !== 'ok') throw new Error(`${what}: ${r.error}`);
  return ms;
}

const p50 = (ms: number[]) => percentile([...ms].sort((a, b) => a - b), 50);
const round = (n: number) => +n.toFixed(2);

/**
 * Scoped against unscoped p50 of each call, per build and project set.
 *
 * @example console.log(JSON.stringify(await measureScope('/tmp/cc.db', { calls: 15 }), null, 2));
 */
export async function measureScope(db: string, options: { calls?: number; projects?: string[][]; before?: string } = {}): Promise<Figure[]> {
  const n = options.calls ?? 15;
  const builds = [...(options.before ? [await otherBuild(options.before, db)] : []), await thisBuild(db)];
  const figures: Figure[] = [];
  try {
    const facts = await corpusFacts(builds.at(-1)!.store);
    const sets = options.projects ?? [facts.projects.slice(0, 1), facts.projects.slice(0, 2)];
    const engine = builds.at(-1)!.store.engine;
    for (const projects of sets) {
      for (const c of callsFor(facts.word)) {
        const ms = new Map<string, number[]>();
        const add = (k: string, v: number) => ms.set(k, [...(ms.get(k) ?? []), v]);
        // Two warm-up rounds, then n rounds of every build's unscoped and scoped call in turn.
        for (let i = 0; i < n + 2; i++) {
          for (const b of builds) {
            const whole = await timeOne(() => b.run(c.tool, c.args, uncached(b.store)), `${b.label} ${c.tool}`);
            const scoped = await timeOne(() => b.run(c.tool, c.args, b.scoped(b.store, projects)), `${b.label} scoped ${c.tool}`);
            if (i >= 2) {
              add(`${b.label} whole`, whole);
              add(`${b.label} scoped`, scoped);
            }
          }
        }
        for (const b of builds) {
          const [scoped, whole] = [p50(ms.get(`${b.label} scoped`)!), p50(ms.get(`${b.label} whole`)!)];
          figures.push({
            figure: `scope.${engine}.${c.label}.${projects.length}_project${projects.length > 1 ? 's' : ''}.${b.label}_p50`,
            value: round(scoped),
            unit: 'ms',
            baseline: round(whole),
            baseline_unit: 'ms (the same call unscoped)',
            ratio: round(scoped / whole),
            target: 'scoped ≤ 1.2× unscoped',
            note: `${JSON.stringify(c.args)}; projects ${projects.join(', ')}; ${n} calls each, interleaved`,
          });
        }
      }
    }
  } finally {
    for (const b of builds) await b.store.close();
  }
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { calls: { type: 'string' }, projects: { type: 'string' }, before: { type: 'string' } },
  });
  const db = positionals[0];
  if (!db) {
    console.error('usage: node dist/bench/scope-bench.js DB [--calls N] [--projects a,b] [--before DIST]');
    process.exit(2);
  }
  const figures = await measureScope(db, {
    calls: values.calls ? Number(values.calls) : undefined,
    projects: values.projects ? [values.projects.split(',')] : undefined,
    before: values.before,
  });
  console.log(JSON.stringify(figures, null, 2));
}
