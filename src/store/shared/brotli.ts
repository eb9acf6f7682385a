// Evidence blocks decompressed, with node:zlib loaded on first use. Why lazily: the store modules
// that read evidence are loaded by every command that opens a store, and most (a warm `hindsight
// usage` report, list_sessions) never read a block; loading zlib costs 4–12 ms of a ~0.3 s report
// on this machine kind.

import { createRequire } from 'node:module';

type Zlib = typeof import('node:zlib');
let zlib: Zlib | undefined;
const load = (): Zlib => (zlib ??= createRequire(import.meta.url)('node:zlib') as Zlib);

type Options = import('node:zlib').BrotliOptions;

/** A block's raw bytes, on this thread. */
export function brotliDecompressSync(data: Buffer, options: Options = {}): Buffer {
  return load().brotliDecompressSync(data, options);
}

/** A block's raw bytes, decompressed on libuv's thread pool. */
export function brotliDecompress(data: Buffer, options: Options = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => load().brotliDecompress(data, options, (err, raw) => (err ? reject(err) : resolve(raw))));
}
