// Tool error sentences name tools ("Run list_sessions to see the ids"): right for agents, wrong
// at a shell. The CLI prints them with each tool named as the command that runs it.

/** The command a person types for each tool that has one. */
const COMMAND_FOR_TOOL: Record<string, string> = {
  list_sessions: 'hindsight sessions',
  session_overview: 'hindsight show',
  get_session: 'hindsight session',
  reconstruct_session: 'hindsight timeline',
  grep_jsonl: 'hindsight grep',
  query_ledger_full: 'hindsight ledger',
  search_sessions: 'hindsight search',
  usage_report: 'hindsight usage',
  inspect_metrics: 'hindsight inspect --metrics',
  export_session: 'hindsight export',
  rewind_session: 'hindsight rewind',
};

const TOOL_NAME = new RegExp(`\\b(${Object.keys(COMMAND_FOR_TOOL).join('|')})\\b`, 'g');

/** `sentence` with every tool name that has a command replaced by that command. */
export function inCliTerms(sentence: string): string {
  return sentence.replace(TOOL_NAME, (name) => COMMAND_FOR_TOOL[name]!);
}
