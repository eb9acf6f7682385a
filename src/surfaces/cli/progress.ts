// A progress bar for ingest on a TTY (bytes and files), redrawn at most ten times a second.

import type { IngestProgress } from '../../ingest/ingest.js';

function mb(n: number): string {
  return (n / 1e6).toFixed(1);
}

export function progressBar(stream: NodeJS.WriteStream): { update(p: IngestProgress): void; done(): void } {
  let last = 0;
  let drawn = false;
  return {
    update(p) {
      const now = Date.now();
      if (now - last < 100 && p.bytesDone < p.bytesTotal) return;
      last = now;
      const frac = p.bytesTotal > 0 ? Math.min(1, p.bytesDone / p.bytesTotal) : 1;
      const width = 24;
      const filled = Math.round(frac * width);
      const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
      const line = `[${bar}] ${(frac * 100).toFixed(0).padStart(3)}%  ${mb(p.bytesDone)}/${mb(p.bytesTotal)} MB  ${p.filesDone}/${p.filesTotal} files`;
      stream.write(`\r${line.slice(0, (stream.columns || 100) - 1)}`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\x1b[K');
    },
  };
}
