// The parser registry (seed §5): parser ids and aliases → definitions, filled once at start-up.
// The first registration of an id wins, so a later duplicate can never replace a parser that is
// already in use.

import type { ParserDefinition } from './types.js';

export class UnknownParserError extends Error {
  constructor(readonly id: string, readonly known: readonly string[]) {
    super(`unknown parser "${id}"; valid parsers: ${known.join(', ')}`);
    this.name = 'UnknownParserError';
  }
}

export class ParserRegistry {
  private readonly byId = new Map<string, ParserDefinition>();
  private readonly definitions: ParserDefinition[] = [];

  /** Register a parser under its id and aliases; ids already taken keep their first parser. Returns the names it got. */
  register(def: ParserDefinition): string[] {
    const got: string[] = [];
    for (const name of [def.id, ...(def.aliases ?? [])]) {
      if (this.byId.has(name)) continue;
      this.byId.set(name, def);
      got.push(name);
    }
    if (got.length) this.definitions.push(def);
    return got;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** The parser for an id or alias; UnknownParserError naming the valid ids otherwise. */
  get(id: string): ParserDefinition {
    const def = this.byId.get(id);
    if (!def) throw new UnknownParserError(id, this.ids());
    return def;
  }

  /** Every registered id and alias, sorted. */
  ids(): string[] {
    return [...this.byId.keys()].sort();
  }

  list(): readonly ParserDefinition[] {
    return this.definitions;
  }
}
