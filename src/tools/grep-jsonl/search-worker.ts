// The search worker's entry (compiled to dist/src/tools/grep-jsonl/search-worker.js): it matches the
// blocks the main thread sends, in order, so a slow pattern never holds up the server's event loop,
// and the main thread can end it (Worker.terminate) when the caller's deadline passes.
// Messages in: {kind: 'plan', plan} then batches {kind: 'blocks', seq, blocks}; out: {kind: 'matched',
// seq, lines, data} (per block) or {kind: 'failed', seq, message}.

import { parentPort } from 'node:worker_threads';
import type { SearchPlan } from '../../core/safe-regex.js';
import { blockSearch, type BlockSearch, type SearchBlock } from './block-search.js';

export type ToWorker = { kind: 'plan'; plan: SearchPlan } | { kind: 'blocks'; seq: number; blocks: SearchBlock[] };
/** Per block of the batch: its matching lines, and its bytes handed back (transferred) so the main thread can read them. */
export type FromWorker = { kind: 'matched'; seq: number; lines: number[][]; data: Uint8Array[] } | { kind: 'failed'; seq: number; message: string };

const port = parentPort;
if (port) {
  let search: BlockSearch | null = null;
  let planError: string | null = null;
  port.on('message', (msg: ToWorker) => {
    if (msg.kind === 'plan') {
      try {
        search = blockSearch(msg.plan);
        planError = null;
      } catch (err) {
        search = null;
        planError = (err as Error).message;
      }
      return;
    }
    let reply: FromWorker;
    try {
      if (!search) throw new Error(planError ?? 'no pattern was sent before the first block');
      const found = search;
      reply = { kind: 'matched', seq: msg.seq, lines: msg.blocks.map((b) => found(b)), data: msg.blocks.map((b) => b.data) };
    } catch (err) {
      reply = { kind: 'failed', seq: msg.seq, message: (err as Error).message };
    }
    port.postMessage(reply, reply.kind === 'matched' ? reply.data.map((d) => d.buffer as ArrayBuffer) : []);
  });
}
