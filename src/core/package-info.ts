// Where Hindsight is installed and which version it is: the folder holding its package.json, found
// by walking up from this module (it runs from src/ under tests and from dist/src/ when built).

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The name Hindsight is published under on npm (the command it installs is `hindsight`). */
export const PACKAGE_NAME = 'hindsight-sessions';

let root: string | undefined;
let version: string | undefined;

/**
 * The package's root folder.
 *
 * @example join(packageRoot(), 'src', 'surfaces', 'web', 'public')
 */
export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === PACKAGE_NAME) return (root = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error(`Cannot find Hindsight's package.json above ${fileURLToPath(import.meta.url)}. Reinstall Hindsight.`);
    dir = up;
  }
}

/** The package version, read once. @example packageVersion() // '0.1.0' */
export function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  return version;
}
