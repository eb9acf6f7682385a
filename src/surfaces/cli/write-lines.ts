// Stream generated lines to a file or stdout without holding the document in memory, honouring
// back-pressure. A file is written beside its target and renamed into place when complete, so a
// failed export never leaves half a file under the name asked for.

import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';

export interface Written {
  bytes: number;
  lines: number;
}

/** Writes the lines, each followed by '\n'; returns how much was written so the caller can say so. */
export async function writeLines(lines: AsyncIterable<string>, outPath?: string): Promise<Written> {
  const written: Written = { bytes: 0, lines: 0 };
  const partial = outPath ? `${outPath}.partial` : null;
  const stream = partial ? createWriteStream(partial) : process.stdout;
  try {
    for await (const line of lines) {
      const text = `${line}\n`;
      written.bytes += Buffer.byteLength(text);
      written.lines++;
      if (!stream.write(text)) await once(stream, 'drain');
    }
    if (partial) {
      stream.end();
      await once(stream, 'finish');
      renameSync(partial, outPath!);
    }
    return written;
  } catch (err) {
    if (partial) {
      stream.destroy();
      rmSync(partial, { force: true });
    }
    throw err;
  }
}
