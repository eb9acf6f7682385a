// Reports refresh the default store first (issue 17): `hindsight usage` works on a machine where
// nothing was ingested, as ccusage does, and a later report sees what the agents wrote since.
//
// - Which commands: the reports over many sessions — usage (every grouping), sessions, inspect.
//   `--no-refresh` reads the store as it is.
// - Which store: the default one only. An explicit --db or $HINDSIGHT_DB names a store someone
//   filled on purpose (a team server, a copy, a test): it is read as it is.
// - Refreshing is the incremental ingest of the default locations: an unchanged file costs a stat,
//   so a refresh with nothing new does no parse work. On a terminal a progress bar shows on stderr
//   once it has taken a second. When nothing changed since the last refresh (refresh-stamp.ts: a
//   stat of every folder and file below the default roots against the stamp that refresh left),
//   the report reads the store at once: the ingest pipeline is not even loaded.
// - The first run (no store yet) of a usage report answers from the usage pass
//   (src/ingest/usage-pass.ts: only the lines that carry usage are parsed, same numbers), prints,
//   and then runs the full ingest before exiting, so the command leaves nothing running and the
//   next report is served from the store. Interrupting that ingest is safe: the next run resumes
//   it. The pass is used for the usage groupings cut in UTC (the stored groups are UTC days);
//   blocks and other zones, and anything the pass cannot answer exactly, ingest first.

import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import type { IngestProgress, IngestSummary } from '../../ingest/ingest.js';
import type { Store } from '../../store/store.js';
import type { Paint } from './colour.js';
import type { CommandOutput, PreparedCommand } from './tool-views.js';

/** A progress bar only on a terminal, and only once the work has taken this long. */
const QUIET_MS = 1000;

export interface RefreshContext {
  env: NodeJS.ProcessEnv;
  home?: string;
  /** Where progress and notes go (stderr). */
  err: NodeJS.WriteStream | { isTTY?: boolean; write(s: string): unknown };
  /** Print the command's answer (stdout). */
  print(res: CommandOutput): void;
  paint: Paint;
  argv?: readonly string[];
}

export interface RefreshRun {
  code: number;
  /** How the answer was made: from the usage pass (then ingested), after a refresh, or from the store as it was (nothing changed, or another ingest was writing). */
  answeredFrom: 'usage-pass' | 'refreshed-store' | 'store';
  /** The refresh's ingest summary (after the answer when answeredFrom is usage-pass); undefined when none ran. */
  ingest?: IngestSummary;
  /** Why the usage pass was not used on a first run, when it was not. */
  passDeclined?: string;
}

/**
 * The usage pass answers usage reports cut in UTC days (any zone that is UTC at every instant:
 * Etc/UTC, GMT, Zulu…), other than blocks (those need each call's own time from the store).
 */
function passAnswers(p: PreparedCommand, isOffsetFree: (zone: string) => boolean): boolean {
  if (p.cli.command !== 'usage') return false;
  const zone = p.args.timezone;
  return p.args.group_by !== 'blocks' && (zone === undefined || (typeof zone === 'string' && isOffsetFree(zone)));
}

/** A Store that holds only the usage pass's calls: all usage_report reads for a UTC grouping. */
function passStore(sessions: import('../../store/store.js').UsageSessionRow[], groups: import('../../store/store.js').UsageCallGroupRow[]): Store {
  const store: Pick<Store, 'usageCallGroups' | 'close'> & { location: string } = {
    location: '(usage pass over the default locations)',
    usageCallGroups: async () => ({ sessions, groups }),
    close: async () => {},
  };
  return store as unknown as Store;
}

/**
 * Ingest the default locations into the store at `dbPath`, with a progress bar on a terminal once
 * it takes a while; once it succeeds, stamp what it was given (refresh-stamp.ts).
 */
async function ingestDefaults(store: Store, dbPath: string, ctx: RefreshContext & { home: string }): Promise<IngestSummary | undefined> {
  const [{ ingestPaths }, { progressBar }, { IngestBusy }, stamps] = await Promise.all([
    import('../../ingest/ingest.js'),
    import('./progress.js'),
    import('../../core/errors.js'),
    import('./refresh-stamp.js'),
  ]);
  // Taken before the ingest reads anything: what changes while it runs is read by the next report.
  const snapshot = stamps.takeSnapshot(await stamps.defaultRootsNow(ctx.env, ctx.home));
  const started = Date.now();
  const bar = ctx.err.isTTY ? progressBar(ctx.err as NodeJS.WriteStream) : null;
  const onProgress = bar ? (p: IngestProgress) => (Date.now() - started >= QUIET_MS ? bar.update(p) : undefined) : undefined;
  let summary: IngestSummary;
  try {
    summary = await ingestPaths(store, [], { env: ctx.env, home: ctx.home, onProgress });
  } catch (err) {
    // Another ingest is writing: this report reads the store as it is rather than wait or fail.
    if (err instanceof Error && (err as { code?: string }).code === IngestBusy.code) {
      ctx.err.write(`hindsight: ${err.message.split('. ')[0]}; reporting from the store as it is.\n`);
      return undefined;
    }
    throw err;
  } finally {
    bar?.done();
  }
  if (snapshot && !summary.roots.some((r) => r.error)) stamps.writeStamp(dbPath, snapshot);
  return summary;
}

/** The store is up to date when the stamp of its last refresh still holds (refresh-stamp.ts). */
async function upToDate(dbPath: string, ctx: RefreshContext & { home: string }): Promise<boolean> {
  const { defaultRootsNow, stampHolds } = await import('./refresh-stamp.js');
  return stampHolds(dbPath, await defaultRootsNow(ctx.env, ctx.home));
}

/**
 * Run a refreshing command on the default store: the usage pass and then the ingest on a first
 * usage report; else nothing more when nothing changed since the last refresh, or the incremental
 * ingest and then the report.
 */
export async function runWithRefresh(p: PreparedCommand, ctx: RefreshContext): Promise<RefreshRun> {
  const [{ defaultDbPath, openStore }, { runPrepared }] = await Promise.all([import('../../store/open.js'), import('./tool-command.js')]);
  const home = ctx.home ?? homedir();
  const here = { ...ctx, home };
  const dbPath = defaultDbPath(ctx.env);
  const first = !existsSync(dbPath);
  if (!first && (await upToDate(dbPath, here))) {
    const store = await openStore({ env: ctx.env, mustExist: true });
    try {
      const res = await runPrepared(p, store, ctx.paint, ctx.argv);
      ctx.print(res);
      return { code: res.code, answeredFrom: 'store' };
    } finally {
      await store.close();
    }
  }
  let passDeclined: string | undefined;
  if (first && passAnswers(p, (await import('../../usage/time-zone.js')).isOffsetFree)) {
    const [{ usagePass }, { LONG_CONTEXT_THRESHOLD }] = await Promise.all([import('../../ingest/usage-pass.js'), import('../../usage/pricing.js')]);
    const pass = await usagePass(LONG_CONTEXT_THRESHOLD, ctx.env, home);
    if (pass.ok) {
      const res = await runPrepared(p, passStore(pass.result.sessions, pass.result.groups), ctx.paint, ctx.argv);
      ctx.print(res);
      if (ctx.err.isTTY) ctx.err.write('hindsight: keeping these sessions in the store for the next reports (safe to interrupt: the next report continues)\n');
      const store = await openStore({ env: ctx.env });
      try {
        const ingest = await ingestDefaults(store, dbPath, here);
        return { code: res.code, answeredFrom: 'usage-pass', ingest };
      } finally {
        await store.close();
      }
    }
    passDeclined = pass.reason;
  }
  const store = await openStore({ env: ctx.env });
  try {
    const ingest = await ingestDefaults(store, dbPath, here);
    const res = await runPrepared(p, store, ctx.paint, ctx.argv);
    ctx.print(res);
    return { code: res.code, answeredFrom: ingest ? 'refreshed-store' : 'store', ingest, ...(passDeclined === undefined ? {} : { passDeclined }) };
  } finally {
    await store.close();
  }
}
