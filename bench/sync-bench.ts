// Sync figures: push throughput (events/s, MB/s) of a local SQLite store into a fresh PostgreSQL
// schema, a push with nothing new, and `sync status` on a store of 10,000 small sessions.
// Standalone: node dist/bench/sync-bench.js [LOCAL_DB]   (without one, a corpus of BENCH_SYNC_MB
// megabytes, default 100, is generated and ingested first). PostgreSQL: HINDSIGHT_TEST_PG.

import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ingestPaths } from '../src/ingest/ingest.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { pushSync, sha1 } from '../src/sync/push.js';
import { openStore } from '../src/store/open.js';
import { syncStatus } from '../src/sync/status.js';
import type { Figure } from './figure.js';
import { dropSchema } from './measure.js';
import { generateClaudeCode } from './generators/claude-code.js';

const PG = process.env.HINDSIGHT_TEST_PG || 'postgres://postgres@127.0.0.1:5432/test';
const REPO = resolve(import.meta.dirname, '..', '..');
const DEMO = join(REPO, '..', 'shared', 'fixtures', 'claude-code', 'projects', '-path-to-Demo', '1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl');

function schemaUrl(schema: string): string {
  const u = new URL(PG);
  u.searchParams.set('schema', schema);
  return u.toString();
}

function identity(name: string) {
  return { machineId: name, user: 'bench', host: 'bench' };
}

/** 10,000 sessions of 4 lines each (the demo transcript's first lines under new ids), 20 projects. */
function tinySessions(dir: string, n: number): void {
  const template = readFileSync(DEMO, 'utf8').split('\n').slice(0, 4).join('\n') + '\n';
  const original = '1af7fc5e-8455-4414-9ccd-011d40f70b2a';
  for (let i = 0; i < n; i++) {
    const project = join(dir, 'projects', `-bench-project-${i % 20}`);
    if (i < 20) mkdirSync(project, { recursive: true });
    const id = randomUUID();
    writeFileSync(join(project, `${id}.jsonl`), template.replaceAll(original, id));
  }
}

/** Push `localDb` into a fresh schema, push again, then time sync status over 10,000 sessions. */
export async function measureSync(localDb: string): Promise<Figure[]> {
  const figures: Figure[] = [];
  const work = mkdtempSync(join(tmpdir(), 'hs-sync-bench-'));
  const schemas: string[] = [];
  try {
    const schema = `hs_sync_bench_${randomBytes(4).toString('hex')}`;
    schemas.push(schema);
    const local = new SqliteStore(localDb);
    const options = { local, remoteUrl: schemaUrl(schema), identity: identity('bench-push'), cacheDir: join(work, 'cache') };
    const bytes = statSync(localDb).size;
    const first = await pushSync(options);
    figures.push(
      { figure: 'sync push: events per second (fresh PostgreSQL schema)', value: Math.round(first.events / first.seconds), unit: 'events/s', note: `${first.events} events, ${first.sessions} sessions, ${first.seconds.toFixed(1)} s` },
      { figure: 'sync push: source MB per second', value: Number((first.bytes / 1e6 / first.seconds).toFixed(1)), unit: 'MB/s', note: `${(first.bytes / 1e6).toFixed(0)} MB of evidence (local store file ${(bytes / 1e6).toFixed(0)} MB)` },
    );
    // Baseline: the same stage folder ingested straight into another fresh schema (the pipeline
    // without sync's planning and mirroring), so the ratio is what sync adds.
    const base = `hs_sync_bench_${randomBytes(4).toString('hex')}`;
    schemas.push(base);
    const stageRoots = (await local.listRoots()).map((r) => join(options.cacheDir, 'stage', 'bench-push', sha1(r.path)));
    const baseStore = await openStore({ db: schemaUrl(base) });
    const direct = await ingestPaths(baseStore, stageRoots);
    await baseStore.close();
    figures[0]!.baseline = Math.round(direct.events / direct.seconds);
    figures[0]!.baseline_unit = 'events/s, ingest of the same files into PostgreSQL';
    figures[0]!.ratio = Number((figures[0]!.value / figures[0]!.baseline).toFixed(2));
    figures[1]!.baseline = Number((direct.bytes / 1e6 / direct.seconds).toFixed(1));
    figures[1]!.baseline_unit = 'MB/s, ingest of the same files into PostgreSQL';
    figures[1]!.ratio = Number((figures[1]!.value / figures[1]!.baseline).toFixed(2));
    const again = await pushSync(options);
    figures.push({ figure: 'sync push with nothing new', value: Number(again.seconds.toFixed(2)), unit: 's', note: `${again.lines} lines moved` });
    const t0 = performance.now();
    await syncStatus({ local, remoteUrl: options.remoteUrl, identity: options.identity });
    figures.push({ figure: `sync status, ${first.sessions} sessions`, value: Number(((performance.now() - t0) / 1000).toFixed(2)), unit: 's' });
    await local.close();

    // 10,000 sessions: sync status compares every one with the remote.
    const many = `hs_sync_bench_${randomBytes(4).toString('hex')}`;
    schemas.push(many);
    const cc = join(work, 'many');
    tinySessions(cc, 10_000);
    const manyDb = join(work, 'many.db');
    const store = new SqliteStore(manyDb);
    await ingestPaths(store, [cc]);
    const manyOptions = { local: store, remoteUrl: schemaUrl(many), identity: identity('bench-many'), cacheDir: join(work, 'cache') };
    const pushed = await pushSync(manyOptions);
    const t1 = performance.now();
    const status = await syncStatus(manyOptions);
    const statusSeconds = (performance.now() - t1) / 1000;
    if (status.sessions.length !== 10_000) throw new Error(`sync status saw ${status.sessions.length} sessions, expected 10000`);
    const t2 = performance.now();
    const offline = await syncStatus({ ...manyOptions, remoteUrl: 'postgres://postgres@127.0.0.1:1/none' });
    const offlineSeconds = (performance.now() - t2) / 1000;
    figures.push(
      { figure: 'sync status, 10,000 sessions (connected)', value: Number(statusSeconds.toFixed(2)), unit: 's', note: `push of those sessions took ${pushed.seconds.toFixed(1)} s` },
      { figure: 'sync status, 10,000 sessions (remote unreachable)', value: Number(offlineSeconds.toFixed(2)), unit: 's', note: `${offline.sessions.length} sessions from the local state` },
    );
    await store.close();
  } finally {
    for (const s of schemas) await dropSchema(PG, s).catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let db = process.argv[2];
  let tmp: string | null = null;
  if (!db) {
    tmp = mkdtempSync(join(tmpdir(), 'hs-sync-corpus-'));
    const mb = Number(process.env.BENCH_SYNC_MB ?? 100);
    generateClaudeCode(join(tmp, 'claude'), { targetBytes: mb * 1e6, seed: 42 });
    db = join(tmp, 'local.db');
    const store = new SqliteStore(db);
    const s = await ingestPaths(store, [join(tmp, 'claude')]);
    process.stderr.write(`generated and ingested ${(s.bytes / 1e6).toFixed(0)} MB (${s.events} events) in ${s.seconds.toFixed(1)} s\n`);
    await store.close();
  }
  try {
    process.stdout.write(`${JSON.stringify({ figures: await measureSync(db) }, null, 2)}\n`);
  } finally {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
}
