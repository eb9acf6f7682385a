// `npm run demo`: generate a small realistic corpus of every format with our own
// generators, ingest it, and show what Hindsight answers. The corpus (~10 MB) lives in a temp
// folder removed on the way out, Ctrl-C included; the store is kept on purpose at one fixed path
// (replaced by the next run) so the commands under "Try next" work on it: it holds every line as
// evidence, so nothing it answers needs the deleted corpus.

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { packageRoot } from '../src/core/package-info.js';
import { generateAmplifier } from '../bench/generators/amplifier.js';
import { generateClaudeCode } from '../bench/generators/claude-code.js';
import { generateControlPlane } from '../bench/generators/control-plane.js';
import { generateCodex } from '../bench/generators/codex.js';
import { generateGemini } from '../bench/generators/gemini.js';
import { generateOpenCode } from '../bench/generators/opencode.js';
import { ingestPaths } from '../src/ingest/ingest.js';
import { openStore } from '../src/store/open.js';
import { painter } from '../src/surfaces/cli/colour.js';
import { runToolCommand } from '../src/surfaces/cli/tool-command.js';
import { renderSessionDetail, renderSessionTable } from '../src/surfaces/cli/render.js';
import { progressBar } from '../src/surfaces/cli/progress.js';
import { findTool } from '../src/tools/registry.js';
import { runTool } from '../src/tools/tool.js';

function heading(text: string): void {
  process.stdout.write(`\n=== ${text} ===\n`);
}

/** The demo store, kept after the run; every run starts it afresh. */
const DEMO_DB = join(tmpdir(), 'hindsight-demo.db');
/** The files SQLite and Hindsight keep beside a store. */
const storeFiles = (db: string) => ['', '-wal', '-shm', '-journal', '.ingest-lock', '.sync.json'].map((s) => `${db}${s}`);

function removeStore(db: string): void {
  for (const f of storeFiles(db)) rmSync(f, { force: true });
}

/**
 * Remove the corpus folder however the demo ends: normally, on an error, or on Ctrl-C / SIGTERM
 * (then the half-built store goes too, and the exit code says which signal).
 */
function cleanupOnExit(corpus: string, db: string): () => void {
  const removeCorpus = () => rmSync(corpus, { recursive: true, force: true });
  const onSignal = (signal: NodeJS.Signals) => {
    removeCorpus();
    removeStore(db);
    process.stderr.write(`\ndemo stopped (${signal}); its temporary files are removed.\n`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('exit', removeCorpus);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    removeCorpus();
  };
}

/** A path as the user would type it where `npm run demo` runs (the package folder), when shorter. */
function typed(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel !== '' && rel.length < path.length ? rel : path;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hindsight-demo-'));
  const db = DEMO_DB;
  const cleanup = cleanupOnExit(dir, db);
  removeStore(db);
  try {
    await demo(dir, db);
  } finally {
    cleanup();
  }
}

async function demo(dir: string, db: string): Promise<void> {
  const claude = join(dir, 'claude');
  const amp = join(dir, 'amplifier');
  const plane = join(dir, 'control-plane');
  const codex = join(dir, 'codex');
  const gemini = join(dir, 'gemini');
  const opencode = join(dir, 'opencode');
  const roots = [claude, amp, plane, codex, gemini, opencode];
  for (const d of roots) mkdirSync(d, { recursive: true });

  heading('1. Generating a small corpus (deterministic, seed 7)');
  const cc = generateClaudeCode(claude, { targetBytes: 4_000_000, seed: 7, projects: 2 });
  const am = generateAmplifier(amp, { targetBytes: 3_000_000, seed: 7 });
  const cp = generateControlPlane(plane, { sessions: 6, seed: 7 });
  const cx = generateCodex(codex, { sessions: 6, seed: 7 });
  const gm = generateGemini(gemini, { sessions: 6, seed: 7 });
  const oc = generateOpenCode(opencode, { sessions: 6, seed: 7 });
  process.stdout.write(
    `Claude Code: ${cc.sessions} sessions (+${cc.subagents} sub-agents), ${(cc.bytes / 1e6).toFixed(1)} MB in ${claude}\n` +
      `Amplifier:   ${am.sessions} sessions, ${(am.bytes / 1e6).toFixed(1)} MB in ${amp}\n` +
      `Control Plane: ${cp.sessions} sessions, ${cp.entries} ledger entries in ${plane}\n` +
      `Codex CLI:   ${cx.sessions} sessions, ${(cx.bytes / 1e6).toFixed(1)} MB in ${codex}\n` +
      `Gemini CLI:  ${gm.sessions} sessions, ${(gm.bytes / 1e6).toFixed(1)} MB in ${gemini}\n` +
      `OpenCode:    ${oc.sessions} sessions, ${oc.messages} messages in ${join(opencode, 'opencode.db')}\n`,
  );

  heading(`2. hindsight ingest ${roots.join(' ')} --db ${db}`);
  const store = await openStore({ db });
  try {
    const bar = process.stderr.isTTY ? progressBar(process.stderr) : null;
    const summary = await ingestPaths(store, roots, { onProgress: bar ? (p) => bar.update(p) : undefined });
    bar?.done();
    for (const r of summary.roots) process.stdout.write(`  ${r.error ? '✗' : '✓'} ${r.path} (${r.format})\n`);
    process.stdout.write(
      `${summary.files} files, ${summary.sessions} sessions, ${summary.events} events, ${summary.badLines} bad lines, ` +
        `${(summary.bytes / 1e6).toFixed(1)} MB in ${summary.seconds.toFixed(2)} s\n`,
    );
    const again = await ingestPaths(store, roots, {});
    process.stdout.write(`Re-ingest of the unchanged corpus: ${again.filesUnchanged}/${again.files} files skipped in ${again.seconds.toFixed(3)} s\n`);

    heading('3. hindsight sessions --top-level');
    const { total, sessions } = await store.listSessions({ limit: 15, offset: 0, topLevelOnly: true });
    const paint = painter(process.stdout, process.env);
    process.stdout.write(`${renderSessionTable(sessions, { total, topLevel: total }, paint)}\n`);
    // Flags by their long names, as on the command line.
    const friendly = async (command: string, positionals: string[], flags: Record<string, unknown> = {}) => {
      const res = await runToolCommand(command, positionals, flags, store, paint);
      process.stdout.write(`${res.stdout || res.stderr}\n`);
    };

    const withChildren = (await store.listSessions({ format: 'claude-code', topLevelOnly: true, limit: 50, offset: 0 })).sessions.find(
      (s) => s.childCount > 0,
    );
    const pick = withChildren ?? sessions[0];
    if (pick) {
      heading(`4. hindsight session ${pick.id}`);
      const children = await store.listSessions({ parentId: pick.id, limit: 20, offset: 0 });
      const { defects } = await store.listDefects({ sessionId: pick.id, limit: 10, offset: 0 });
      process.stdout.write(`${renderSessionDetail(pick, await store.sessionLedgers(pick.id), children.sessions, defects)}\n`);

      heading(`5. hindsight show ${pick.id}`);
      await friendly('show', [pick.id]);

      heading(`6. hindsight timeline ${pick.id} --limit 12   (sub-agent rows marked *)`);
      await friendly('timeline', [pick.id], { limit: 12 });
    }

    const planeSession = (await store.listSessions({ format: 'control-plane', limit: 1, offset: 0 })).sessions[0];
    if (planeSession) {
      heading(`7. hindsight show ${planeSession.id}   (a Control Plane session)`);
      await friendly('show', [planeSession.id]);
    }

    heading(`8. hindsight ledger --ledger ho1m --type TOOL_CALL --limit 5`);
    await friendly('ledger', [], { ledger: 'ho1m', type: 'TOOL_CALL', limit: 5 });

    heading(`9. hindsight grep 'budget_exhausted|DEGRADATION' --ledger ho2m --limit 5   (from the stored evidence)`);
    await friendly('grep', ['budget_exhausted|DEGRADATION'], { ledger: 'ho2m', limit: 5 });

    if (pick) {
      heading(`10. hindsight tool raw_lines '{"session_id":"${pick.id}","limit":2,"max_bytes":1200}'`);
      const result = await runTool(findTool('raw_lines')!, { session_id: pick.id, limit: 2, max_bytes: 1200 }, { store });
      process.stdout.write(`${JSON.stringify(result, null, 2).slice(0, 1500)}\n`);
    }

    heading('11. hindsight usage session --limit 5   (tokens and cost, each LLM call once)');
    await friendly('usage', ['session'], { limit: 5 });

    heading('12. hindsight inspect --metrics --limit 8   (recent sessions: model, steps, tool calls, files changed)');
    await friendly('inspect', [], { metrics: true, limit: 8 });

    heading('Try next   (the corpus folder is removed now; the store keeps every line as evidence)');
    const h = './bin/hindsight';
    const some = pick?.id ?? sessions[0]?.id ?? 'SESSION_ID';
    const fixtures = join(packageRoot(), '..', 'shared', 'fixtures');
    process.stdout.write(
      [
        `${h} sessions --db ${db}`,
        `${h} show ${some} --db ${db}`,
        `${h} timeline ${some} --full --limit 20 --db ${db}`,
        `${h} grep 'budget_exhausted|DEGRADATION' --ledger ho2m --db ${db}`,
        `${h} ledger --ledger ho2m --type TURN_RECORDED --db ${db}`,
        `${h} tool list_sessions '{"format":"amplifier","limit":5}' --db ${db}`,
        `${h} tool sources '{"section":"files","limit":5}' --db ${db}`,
        `${h} inspect --metrics --stats --days 3650 --db ${db}`,
        `${h} export ${some} --as markdown --db ${db}`,
        `${h} serve --db ${db}            # the web viewer and HTTP API at http://127.0.0.1:7718/`,
        `${h} mcp --db ${db}              # the tools for an agent over MCP (stdio; --tools all for every tool)`,
        `${h} tools --json`,
        `${h} ingest ~/.claude            # your own Claude Code sessions (default store)`,
        ...(existsSync(join(fixtures, 'control-plane', 'edge'))
          ? [`${h} ingest ${typed(join(fixtures, 'control-plane', 'edge'))} --db /tmp/edge.db   # a plane root with defects`]
          : []),
      ].join('\n') + '\n',
    );
  } finally {
    await store.close();
  }
}

main().catch((err) => {
  process.stderr.write(`demo failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
