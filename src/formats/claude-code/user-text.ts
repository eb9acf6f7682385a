// Tells a human prompt from the text Claude Code itself writes into `user` lines (slash-command
// wrappers, local command output, reminders, interruption markers) and strips the wrapper tags.

/**
 * Why a user text is not a plain human prompt. `command` is a slash command the human typed
 * (`/init`, `/model`): it starts a turn unless it is a local one (see user-line.ts).
 */
export type UserWrapper =
  | 'command'
  | 'local-command-output'
  | 'caveat'
  | 'bash-input'
  | 'bash-output'
  | 'task-notification'
  | 'system-reminder'
  | 'interrupt'
  | 'compact-summary'
  | 'meta'
  | 'empty';

export interface UserText {
  /** Undefined for a human prompt. */
  wrapper?: UserWrapper;
  /** Display text with wrapper tags removed (a command renders as `/name args`). */
  text: string;
}

const REMINDER_RE = /<system-reminder>[\s\S]*?(?:<\/system-reminder>|$)/g;
const INTERRUPT_PREFIX = '[Request interrupted by user';

/** Tag (opening the text) → wrapper kind, checked in order. */
const LEADING_TAGS: [string, UserWrapper][] = [
  ['<local-command-stdout>', 'local-command-output'],
  ['<local-command-stderr>', 'local-command-output'],
  ['<local-command-caveat>', 'caveat'],
  ['<bash-input>', 'bash-input'],
  ['<bash-stdout>', 'bash-output'],
  ['<bash-stderr>', 'bash-output'],
  ['<task-notification>', 'task-notification'],
  ['<user-prompt-submit-hook>', 'system-reminder'],
];

/** Contents of the first `<tag>…</tag>` in `text`, or undefined. */
export function tagContent(text: string, tag: string): string | undefined {
  const open = `<${tag}>`;
  const start = text.indexOf(open);
  if (start < 0) return undefined;
  const end = text.indexOf(`</${tag}>`, start + open.length);
  return text.slice(start + open.length, end < 0 ? undefined : end);
}

/** Remove every XML-ish tag, keeping the text between them. */
export function stripTags(text: string): string {
  return text.replace(/<\/?[a-z][a-z0-9-]*>/gi, ' ').replace(/\s+/g, ' ').trim();
}

/** `/name args` for a `<command-name>` wrapper, or undefined when there is none. */
export function renderCommand(text: string): string | undefined {
  const name = tagContent(text, 'command-name');
  if (name === undefined) return undefined;
  const args = tagContent(text, 'command-args') ?? '';
  const shown = name.trim().startsWith('/') ? name.trim() : `/${name.trim()}`;
  return `${shown} ${args.trim()}`.trim();
}

/**
 * Classify the text of a user line (a string content or one text block).
 *
 * @example classifyUserText('[Request interrupted by user]', {}) // { wrapper: 'interrupt', … }
 */
export function classifyUserText(raw: string, flags: { isMeta?: boolean; isCompactSummary?: boolean }): UserText {
  if (flags.isCompactSummary) return { wrapper: 'compact-summary', text: raw.trim() };
  const trimmed = raw.trim();
  if (trimmed.startsWith(INTERRUPT_PREFIX)) return { wrapper: 'interrupt', text: trimmed };
  // Reminders are appended to or sent instead of prompts; what is left after removing them decides.
  const rest = trimmed.includes('<system-reminder>') ? trimmed.replace(REMINDER_RE, '').trim() : trimmed;
  if (rest === '') return { wrapper: trimmed === '' ? 'empty' : 'system-reminder', text: trimmed === '' ? '' : stripTags(trimmed) };
  const command = renderCommand(rest);
  if (command !== undefined) return { wrapper: 'command', text: command };
  for (const [tag, wrapper] of LEADING_TAGS) {
    if (rest.startsWith(tag)) {
      const inner = wrapper === 'task-notification' ? (tagContent(rest, 'summary') ?? rest) : rest;
      return { wrapper, text: stripTags(inner) };
    }
  }
  if (flags.isMeta) return { wrapper: 'meta', text: rest };
  return { text: rest };
}
