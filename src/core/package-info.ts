// Where Hindsight is installed and which version it is: the folder holding its package.json, found
// by walking up from this module (it runs from src/ under tests and from dist/src/ when built).

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The name Hindsight is published under on npm (the command it installs is programName()). */
export const PACKAGE_NAME = 'hindsight-sessions';

let root: string | undefined;
let version: string | undefined;
let program: string | undefined;

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

/**
 * The command Hindsight installs (the first `bin` key of its package.json), read once: the one
 * place the program's name is written, so paths (~/.local/share/<name>), auth realms, the MCP
 * server name and the commands help prints follow it, and no module spells it in quotes.
 *
 * @example programName() // the bin key of package.json, e.g. hindsight
 */
export function programName(): string {
  if (program) return program;
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { bin?: Record<string, string> | string };
  const name = pkg.bin && typeof pkg.bin === 'object' ? Object.keys(pkg.bin)[0] : undefined;
  if (!name) throw new Error(`Hindsight's package.json in ${packageRoot()} names no command under "bin". Reinstall Hindsight.`);
  return (program = name);
}
