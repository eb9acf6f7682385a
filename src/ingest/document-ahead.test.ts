// Documents (Amplifier's metadata.json, Gemini's chat files) are parsed one file ahead and their
// evidence compresses while the file before them is written (prepareDocument): the document is
// still written exactly as before, and an error of its parser belongs to it, not to the file
// being written when it was prepared.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers.js';
import type { Importer } from '../formats/importer.js';
import { loadImporter } from '../formats/registry.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { planFile, prepareDocument, runPlan } from './ingest-file.js';
import { ParseQueue } from './parse-queue.js';

const ID = '11111111-2222-4333-8444-555555555555';
const METADATA = `{"session_id": "${ID}", "created": "2026-03-01T10:00:00+00:00",\n "name": "ahead"}\n`;

/** An Amplifier root with one session: a two-line metadata.json and a one-line transcript. */
function amplifierRoot(): { root: string; metadata: string } {
  const root = tempDir('hs-ahead-');
  const dir = join(root, 'projects', '-tmp-ahead', 'sessions', ID);
  mkdirSync(dir, { recursive: true });
  const metadata = join(dir, 'metadata.json');
  writeFileSync(metadata, METADATA);
  writeFileSync(
    join(dir, 'transcript.jsonl'),
    `${JSON.stringify({ role: 'user', content: 'hello there', metadata: { timestamp: '2026-03-01T10:00:00+00:00' } })}\n`,
  );
  writeFileSync(join(dir, 'events.jsonl'), '');
  return { root, metadata };
}

async function documentPlan(importer: Importer) {
  const { root, metadata } = amplifierRoot();
  const store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  const writer = await store.beginIngest();
  const rootId = await writer.rootId(root, 'amplifier');
  const source = (await importer.discover(root)).find((f) => f.path === metadata)!;
  const plan = await planFile(writer, importer, source, rootId, new Map());
  if (plan.kind !== 'document') throw new Error(`expected a document plan, got ${plan.kind}`);
  const done = async () => {
    await writer.release();
    await store.close();
  };
  return { plan, writer, done };
}

describe('documents prepared one file ahead', () => {
  it('are parsed and compressed before their turn, then written as before', async () => {
    const amplifier = await loadImporter('amplifier');
    const { plan, writer, done } = await documentPlan(amplifier);
    prepareDocument(plan);
    const parsed = await plan.prepared!;
    // The evidence is ready before runPlan: the document's exact bytes, in one compressed block.
    expect(parsed.blocks).toHaveLength(1);
    expect(brotliDecompressSync(parsed.blocks[0]!.data).toString()).toBe(METADATA);
    expect(parsed.blocks[0]!.lines.map((l) => l.lineNumber)).toEqual([1, 2]);
    const outcome = await runPlan(writer, plan, new ParseQueue());
    expect(outcome.lines).toBe(2);
    expect(outcome.bytes).toBe(Buffer.byteLength(METADATA));
    await done();
  });

  it('keep a parser error for their own runPlan', async () => {
    const amplifier = await loadImporter('amplifier');
    const failing: Importer = {
      ...amplifier,
      createParser: () => ({
        line() {},
        document() {
          throw new Error('metadata parser failed');
        },
        snapshot: () => null,
      }),
    };
    const { plan, writer, done } = await documentPlan(failing);
    expect(() => prepareDocument(plan)).not.toThrow();
    await expect(runPlan(writer, plan, new ParseQueue())).rejects.toThrow('metadata parser failed');
    await done();
  });
});
