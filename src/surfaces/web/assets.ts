// Serves the web viewer's static files (src/surfaces/web/public) to the HTTP surface, confined to that folder.
// The folder is found from the package root so the same code works from TypeScript sources and from dist/.

import { packageRoot } from '../../core/package-info.js';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, join, sep } from 'node:path';

export interface WebAsset {
  body: Buffer;
  contentType: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};


let publicDir: string | undefined;
// Only files that exist are cached, so probing for random names cannot grow memory.
const cache = new Map<string, WebAsset>();

/** The folder the viewer's files are served from (absolute, symlinks resolved). */
export function webAssetsDir(): string {
  // tsc does not copy non-TS files into dist/: the assets are read from the package's src/.
  publicDir ??= realpathSync(join(packageRoot(), 'src', 'surfaces', 'web', 'public'));
  return publicDir;
}

// Only plain names made of safe characters, one or more segments; nothing hidden, no traversal.
const SAFE_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/**
 * The viewer asset for a URL path ('/' is index.html), or null when there is none or the path
 * tries to leave the assets folder. Query strings and fragments are ignored. Each file is read once.
 * @example webAsset('/app.js')?.contentType // 'text/javascript; charset=utf-8'
 */
export function webAsset(urlPath: string): WebAsset | null {
  let path = urlPath.split(/[?#]/, 1)[0] ?? '';
  if (path === '' || path === '/') path = '/index.html';
  if (!path.startsWith('/') || path.includes('\\') || path.includes('\0') || path.includes('%')) return null;
  const segments = path.slice(1).split('/');
  if (segments.some((s) => !SAFE_SEGMENT.test(s) || s.includes('..'))) return null;
  const ext = extname(path).toLowerCase();
  const contentType = CONTENT_TYPES[ext];
  if (contentType === undefined) return null;
  const cached = cache.get(path);
  if (cached !== undefined) return cached;
  const root = webAssetsDir();
  const file = join(root, ...segments);
  try {
    const real = realpathSync(file);
    if (!real.startsWith(root + sep) || !statSync(real).isFile()) return null;
    const asset = { body: readFileSync(real), contentType };
    cache.set(path, asset);
    return asset;
  } catch {
    return null;
  }
}
