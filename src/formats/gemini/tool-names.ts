// Gemini CLI's built-in tool names in the generic terms the shared tool tables use
// (FormatProfile.toolAliases): what each one does, so summaries, files touched and the about
// paragraph treat `replace` as an edit and `run_shell_command` as a shell command.

export const GEMINI_TOOL_ALIASES: Readonly<Record<string, string>> = {
  read_many_files: 'read',
  replace: 'edit',
  search_file_content: 'grep',
  grep_search: 'grep',
  list_directory: 'list_files',
  google_web_search: 'web_search',
  run_shell_command: 'bash',
  delegate_to_agent: 'delegate',
  write_todos: 'todo_write',
};

/** The generic name of a Gemini tool (itself when it has none). */
export function genericToolName(name: string): string {
  return GEMINI_TOOL_ALIASES[name.toLowerCase()] ?? name;
}
