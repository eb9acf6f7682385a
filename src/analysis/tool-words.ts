// Tool names → what the agent did, in words. One table for every format: Claude Code
// (Read, Edit, Bash, Task…), Amplifier (read_file, bash, delegate…) and Control Plane tool ids
// (read_file, list_files, query_ledger, grep_jsonl…). Names are matched case-insensitively;
// tools not in the table are named as they are ("called list_packages three times").

import { count, counted, times } from './words.js';

export type ToolActivity =
  | 'read'
  | 'edit'
  | 'write'
  | 'shell'
  | 'delegate'
  | 'search'
  | 'list'
  | 'ledger'
  | 'web_fetch'
  | 'web_search'
  | 'todo';

/** Lower-cased tool name → activity. */
export const TOOL_ACTIVITY: Readonly<Record<string, ToolActivity>> = {
  // Reading files
  read: 'read', read_file: 'read', notebookread: 'read', view: 'read', view_file: 'read', cat: 'read',
  // Changing files
  edit: 'edit', multiedit: 'edit', notebookedit: 'edit', edit_file: 'edit', str_replace: 'edit', apply_patch: 'edit',
  write: 'write', write_file: 'write', create_file: 'write',
  // Shell
  bash: 'shell', shell: 'shell', run_command: 'shell', execute_command: 'shell',
  // Sub-agents
  task: 'delegate', agent: 'delegate', delegate: 'delegate', spawn_agent: 'delegate',
  // Searching
  grep: 'search', glob: 'search', grep_jsonl: 'search', search_files: 'search', find_files: 'search', search: 'search',
  ls: 'list', list_files: 'list', list_directory: 'list', list_dir: 'list',
  // Control Plane ledger reads
  query_ledger: 'ledger', query_ledger_full: 'ledger',
  // The web
  webfetch: 'web_fetch', web_fetch: 'web_fetch', fetch_url: 'web_fetch',
  websearch: 'web_search', web_search: 'web_search',
  // Planning
  todowrite: 'todo', todo: 'todo', todo_write: 'todo',
};

/** Activities in the order the sentence lists them. */
const ORDER: readonly ToolActivity[] = ['read', 'edit', 'write', 'shell', 'delegate', 'search', 'list', 'ledger', 'web_fetch', 'web_search', 'todo'];

/** How many tools outside the table are named before the rest are summed up. */
const NAMED_OTHERS = 4;

/** The activity of a tool, its name first translated by the format's aliases (FormatProfile.toolAliases). */
export function activityOf(toolName: string, aliases: Readonly<Record<string, string>> = {}): ToolActivity | undefined {
  const name = toolName.toLowerCase();
  return TOOL_ACTIVITY[aliases[name] ?? name];
}

function phrase(activity: ToolActivity, n: number, afterRead: boolean): string {
  switch (activity) {
    case 'read':
      return `read ${counted(n, 'file')}`;
    case 'edit':
      // "read 14 files, edited 6": the noun is already there.
      return afterRead ? `edited ${count(n)}` : `edited ${counted(n, 'file')}`;
    case 'write':
      return `wrote ${counted(n, 'file')}`;
    case 'shell':
      return `ran ${counted(n, 'shell command')}`;
    case 'delegate':
      return `delegated ${counted(n, 'task')}`;
    case 'search':
      return `searched ${times(n)}`;
    case 'list':
      return `listed folders ${times(n)}`;
    case 'ledger':
      return `queried the ledgers ${times(n)}`;
    case 'web_fetch':
      return `fetched ${counted(n, 'web page')}`;
    case 'web_search':
      return `searched the web ${times(n)}`;
    case 'todo':
      return `updated its to-do list ${times(n)}`;
  }
}

/**
 * Verb phrases for the tools a session called, in a fixed order (known activities first, then
 * other tools by number of calls, then name). `calls` maps tool name → number of calls.
 *
 * @example toolPhrases({ Read: 14, Edit: 6, Bash: 9, list_packages: 3 })
 * // ['read 14 files', 'edited six', 'ran nine shell commands', 'called list_packages three times']
 * // toolPhrases({ a: 3, b: 1 }) // ['called a three times', 'b once']
 */
export function toolPhrases(calls: Readonly<Record<string, number>>, aliases: Readonly<Record<string, string>> = {}): string[] {
  const byActivity = new Map<ToolActivity, number>();
  const others: [string, number][] = [];
  for (const [name, n] of Object.entries(calls)) {
    if (n <= 0) continue;
    const activity = activityOf(name, aliases);
    if (activity) byActivity.set(activity, (byActivity.get(activity) ?? 0) + n);
    else others.push([name, n]);
  }
  const phrases: string[] = [];
  let previous: ToolActivity | undefined;
  for (const activity of ORDER) {
    const n = byActivity.get(activity);
    if (!n) continue;
    phrases.push(phrase(activity, n, previous === 'read'));
    previous = activity;
  }
  others.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  // "called list_packages three times, list_sessions twice and 2 other tools 5 times": one verb.
  const named = others.slice(0, NAMED_OTHERS).map(([name, n]) => `${name} ${times(n)}`);
  const rest = others.slice(NAMED_OTHERS);
  if (rest.length > 0) {
    const n = rest.reduce((sum, [, c]) => sum + c, 0);
    named.push(`${counted(rest.length, 'other tool')} ${times(n)}`);
  }
  named.forEach((p, i) => phrases.push(i === 0 ? `called ${p}` : p));
  return phrases;
}
