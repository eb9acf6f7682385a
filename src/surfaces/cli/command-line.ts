// Commands printed back to the user (next-page and see-findings hints) are the command line they
// typed, every flag kept (--db above all: a hint without it reads another store), so a hint can
// be pasted as it is.

import { programName } from '../../core/package-info.js';

/** A value as one shell word. */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** `argv` (the arguments after the command's name) with its --offset replaced by `offset`. */
export function commandWithOffset(argv: readonly string[], offset: number): string {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--offset') {
      i++;
      continue;
    }
    if (a.startsWith('--offset=')) continue;
    kept.push(a);
  }
  return [programName(), ...kept, '--offset', String(offset)].map(shellWord).join(' ');
}

/** Renderers end a page with "next page: … --offset N"; this makes it the full command line. */
export function withNextPageCommand(text: string, argv: readonly string[]): string {
  return text.replace(/next page: [^\n]*?--offset (\d+)/g, (_m, n: string) => `next page: ${commandWithOffset(argv, Number(n))}`);
}
