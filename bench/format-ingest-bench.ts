// Ingest throughput of the formats added in issue 13 (Codex CLI, Gemini CLI, OpenCode) against a bare
// parse of the same bytes in the same run: every JSONL line and every JSON document read and
// JSON.parse'd, and for an OpenCode database every row's `data` column selected and parsed. The
// corpora come from the formats' generators (bench/generators/), cached under .bench/.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { readLines } from '../src/ingest/line-reader.js';
import type { Figure } from './figure.js';
import { generateCodex } from './generators/codex.js';
import { generateGemini } from './generators/gemini.js';
import { generateOpenCode } from './generators/opencode.js';

interface Corpus {
  format: string;
  make(dir: string): { bytes: number };
}

const SESSIONS = Number(process.env.BENCH_FORMAT_SESSIONS ?? 300);
const OPENCODE_BYTES = Number(process.env.BENCH_OPENCODE_MB ?? 40) * 1e6;

const CORPORA: Corpus[] = [
  { format: 'codex', make: (dir) => generateCodex(dir, { sessions: SESSIONS, seed: 13 }) },
  { format: 'gemini', make: (dir) => generateGemini(dir, { sessions: SESSIONS, seed: 13 }) },
  { format: 'opencode', make: (dir) => generateOpenCode(dir, { seed: 13, targetBytes: OPENCODE_BYTES, layout: 'db' }) },
];

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) filesUnder(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** Read and JSON.parse every record of the corpus, the fastest plain way; nothing stored. */
export function bareParseAny(dir: string): { seconds: number; bytes: number; records: number } {
  const started = process.hrtime.bigint();
  let bytes = 0;
  let records = 0;
  const parse = (text: string) => {
    try {
      JSON.parse(text);
    } catch {
      /* a bad record costs its parse like any other */
    }
    records++;
  };
  for (const f of filesUnder(dir)) {
    if (f.endsWith('.jsonl')) {
      bytes += statSync(f).size;
      for (const line of readLines(f)) if (line.bytes.length > 0) parse(line.bytes.toString('utf8'));
    } else if (f.endsWith('.json')) {
      const text = readFileSync(f, 'utf8');
      bytes += Buffer.byteLength(text);
      parse(text);
    } else if (f.endsWith('.db')) {
      const db = new Database(f, { readonly: true });
      try {
        // session rows keep their fields in columns (no data JSON): read, nothing to parse.
        for (const row of db.prepare('SELECT * FROM session').raw().iterate() as Iterable<unknown[]>) bytes += JSON.stringify(row).length;
        for (const table of ['message', 'part']) {
          for (const row of db.prepare(`SELECT data FROM ${table}`).raw().iterate() as Iterable<[string]>) {
            bytes += Buffer.byteLength(row[0]);
            parse(row[0]);
          }
        }
      } finally {
        db.close();
      }
    }
  }
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, bytes, records };
}

function ingestChild(repo: string, db: string, path: string) {
  const res = spawnSync(process.execPath, [join(repo, 'dist', 'bench', 'ingest-child.js'), db, path], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (res.status !== 0) throw new Error(`ingest failed: ${res.stderr}`);
  return JSON.parse(res.stdout.trim().split('\n').pop()!) as { seconds: number; bytes: number; events: number; maxRssBytes: number };
}

export function measureNewFormats(repo: string, work: string): Figure[] {
  const figures: Figure[] = [];
  for (const c of CORPORA) {
    const dir = join(work, `${c.format}-${c.format === 'opencode' ? `${OPENCODE_BYTES / 1e6}mb` : `${SESSIONS}s`}`);
    const marker = join(dir, '.complete');
    if (!existsSync(marker)) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      writeFileSync(marker, JSON.stringify(c.make(dir)));
    }
    const base = bareParseAny(dir);
    const db = join(work, `${c.format}.db`);
    for (const suffix of ['', '-wal', '-shm', '.ingest-lock']) rmSync(db + suffix, { force: true });
    const run = ingestChild(repo, db, dir);
    const mbs = base.bytes / 1e6 / run.seconds;
    const baseMBs = base.bytes / 1e6 / base.seconds;
    figures.push(
      {
        figure: `${c.format}.ingest_throughput`,
        value: +mbs.toFixed(1),
        unit: 'MB/s (record bytes)',
        baseline: +baseMBs.toFixed(1),
        baseline_unit: 'MB/s (bare read + JSON.parse of every record, same run)',
        ratio: +(mbs / baseMBs).toFixed(3),
        target: '>= 0.5 (issue 17)',
        note: `${(base.bytes / 1e6).toFixed(1)} MB, ${base.records} records, ${run.events} events`,
      },
      { figure: `${c.format}.peak_rss`, value: +(run.maxRssBytes / 1e6).toFixed(1), unit: 'MB', target: '< 300' },
    );
  }
  return figures;
}

if (process.argv[1]?.endsWith('format-ingest-bench.js')) {
  const repo = join(import.meta.dirname, '..', '..');
  const work = join(repo, '.bench');
  mkdirSync(work, { recursive: true });
  console.log(JSON.stringify(measureNewFormats(repo, work), null, 1));
}
