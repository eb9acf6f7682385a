// Stream generated lines to a file or stdout without holding the document in memory, honouring
// back-pressure. A file is written beside its target and renamed into place when complete, so a
// failed export never leaves half a file under the name asked for.

import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';

export async function writeLines(lines: AsyncIterable<string>, outPath?: string): Promise<void> {
  const partial = outPath ? `${outPath}.partial` : null;
  const stream = partial ? createWriteStream(partial) : process.stdout;
  try {
    for await (const line of lines) {
      if (!stream.write(`${line}\n`)) await once(stream, 'drain');
    }
    if (partial) {
      stream.end();
      await once(stream, 'finish');
      renameSync(partial, outPath!);
    }
  } catch (err) {
    if (partial) {
      stream.destroy();
      rmSync(partial, { force: true });
    }
    throw err;
  }
}
