// Bringing a store up to date with one recorded session file, as `hindsight ingest` of its root
// would, but without detecting or discovering anything: the file is known, so it is planned and
// ingested alone (only its new lines are read), and only the sessions it touched are summarised
// again. Syncs of one process take turns (the ingest lock is per process id, so two recorders of
// one process — a parent and its handoff child — would otherwise refuse each other).

import { join } from 'node:path';
import { ingestFile } from '../../ingest/ingest-file.js';
import { realRootPath } from '../../ingest/root-path.js';
import { HINDSIGHT_FORMAT, sessionSource } from '../../formats/hindsight/index.js';
import { importerFor, loadImporter, loadImporters } from '../../formats/registry.js';
import type { Store } from '../../store/store.js';

let importersLoaded: Promise<unknown> | null = null;
let turn: Promise<unknown> = Promise.resolve();

/** Run `fn` after every sync this process started before it. */
function inTurn<T>(fn: () => Promise<T>): Promise<T> {
  const run = turn.then(fn, fn);
  turn = run.catch(() => undefined);
  return run;
}

export interface SyncOptions {
  /** Wait this long for another process's ingest to finish (default: do not wait). */
  waitMs?: number;
}

/**
 * Ingest the new lines of `relPath` under the sessions root `root` into `store`, and summarise
 * the sessions they touched. Throws what the store throws (INGEST_BUSY when another ingest holds
 * the lock and `waitMs` ran out).
 */
export function syncSessionFile(store: Store, root: string, relPath: string, options: SyncOptions = {}): Promise<void> {
  return inTurn(async () => {
    // Summarising may meet a session of any format left dirty by an interrupted ingest.
    importersLoaded ??= loadImporters();
    await importersLoaded;
    const importer = await loadImporter(HINDSIGHT_FORMAT);
    // The root as `hindsight ingest <root>` records it, so both read the same file record.
    const realRoot = realRootPath(root);
    const source = sessionSource(realRoot, join(realRoot, ...relPath.split('/')), relPath);
    if (!source) throw new Error(`${relPath} is not named like a session file (<session id>.jsonl)`);
    const waiting = options.waitMs !== undefined && options.waitMs > 0;
    const writer = await store.beginIngest({ wait: waiting, waitTimeoutMs: options.waitMs });
    try {
      const rootId = await writer.rootId(realRoot, HINDSIGHT_FORMAT);
      await ingestFile(writer, importer, source, rootId);
      await writer.summarizeDirty((format, input) => importerFor(format).summarize(input));
    } finally {
      await writer.release();
    }
  });
}
