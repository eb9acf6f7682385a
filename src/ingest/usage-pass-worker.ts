// A usage pass worker (usage-pass-split.ts): reads the files it is given for usage
// (usage-pass-file.ts) with their format's importer and posts every file's result back, in the
// order given. A chain group's files all come to the same worker, in reading order, so the chain
// state stays here.

import { parentPort, workerData } from 'node:worker_threads';
import type { SourceFile } from '../formats/importer.js';
import { loadImporter } from '../formats/registry.js';
import { readFileUsage, type FileUsage } from './usage-pass-file.js';

export type ToUsageWorker = { format: string; files: SourceFile[] };
export type FromUsageWorker = { ok: true; results: FileUsage[] } | { ok: false; message: string };

const port = parentPort!;
// The formats to read (workerData) load while the caller is still discovering files.
for (const format of (workerData as string[] | undefined) ?? []) void loadImporter(format).catch(() => {});

port.on('message', (msg: ToUsageWorker) => {
  void (async () => {
    try {
      const importer = await loadImporter(msg.format);
      const chains = new Map<string, unknown>();
      const results = msg.files.map((file) => {
        const usage = readFileUsage(importer, file, file.chainGroup ? chains.get(file.chainGroup) : undefined);
        if (file.chainGroup) chains.set(file.chainGroup, usage.chainState);
        return usage;
      });
      port.postMessage({ ok: true, results } satisfies FromUsageWorker);
    } catch (err) {
      port.postMessage({ ok: false, message: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies FromUsageWorker);
    }
  })();
});
