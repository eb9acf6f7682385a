// Tool error sentences name tools ("Run list_sessions to see the ids"): right for agents, wrong
// at a shell. The CLI prints them with each tool named as the command that runs it, as the tools'
// own CLI spellings (their cli.ts, through the command table) say.

import { commandForTool, type CommandTable } from './command-table.js';

const spellings = new WeakMap<CommandTable, { pattern: RegExp; commands: Map<string, string> } | null>();

function spellingsOf(table: CommandTable) {
  if (!spellings.has(table)) {
    const commands = new Map<string, string>();
    for (const c of table.commands) if (c.tool) commands.set(c.tool, commandForTool(table, c.tool)!);
    spellings.set(table, commands.size ? { pattern: new RegExp(`\\b(${[...commands.keys()].join('|')})\\b`, 'g'), commands } : null);
  }
  return spellings.get(table);
}

/**
 * `sentence` with every tool name that has a command replaced by that command.
 *
 * @example inCliTerms('Run list_sessions to see the ids.', table) // 'Run hindsight sessions to see the ids.'
 */
export function inCliTerms(sentence: string, table: CommandTable | undefined): string {
  const found = table && spellingsOf(table);
  if (!found) return sentence;
  return sentence.replace(found.pattern, (name) => found.commands.get(name)!);
}
