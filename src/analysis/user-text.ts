// What a user turn said, without the text agents wrap around it. The importers already strip
// Claude Code's wrappers from prompts; this removes what can be left (a reminder appended to a
// prompt, command tags, local-command output, a tool result pasted back) so that neither the
// overview's quotes nor its message list show machinery.

/** Blocks dropped with their contents: none of it is the user's words. */
const DROPPED_BLOCKS = [
  'system-reminder',
  'local-command-stdout',
  'local-command-stderr',
  'local-command-caveat',
  'bash-stdout',
  'bash-stderr',
  'tool_result',
  'tool-result',
  'function_results',
  'user-prompt-submit-hook',
];

const BLOCK_RES = DROPPED_BLOCKS.map((tag) => new RegExp(`<${tag}>[\\s\\S]*?(?:</${tag}>|$)`, 'g'));

/**
 * The user's words: wrapper blocks removed, a slash command shown as `/name args`, remaining
 * tags dropped (their text kept), surrounding whitespace trimmed. Line breaks inside the message
 * are kept.
 *
 * @example cleanUserText('<command-name>/init</command-name><command-args></command-args>') // '/init'
 * @example cleanUserText('fix it<system-reminder>be brief</system-reminder>') // 'fix it'
 */
export function cleanUserText(text: string): string {
  if (!text.includes('<')) return text.trim();
  let out = text;
  for (const re of BLOCK_RES) out = out.replace(re, ' ');
  const name = /<command-name>([\s\S]*?)<\/command-name>/.exec(out)?.[1]?.trim();
  if (name) {
    const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(out)?.[1]?.trim() ?? '';
    const shown = name.startsWith('/') ? name : `/${name}`;
    return `${shown} ${args}`.trim();
  }
  out = out.replace(/<command-(?:message|args)>[\s\S]*?<\/command-(?:message|args)>/g, ' ');
  // Only tag-like tokens that agents write (lower-case names, optionally with dashes): a user's
  // "a < b" or "<T>" in code stays as typed.
  out = out.replace(/<\/?[a-z][a-z0-9_-]*-[a-z0-9_-]*>/g, ' ');
  return out.replace(/[ \t]+/g, ' ').replace(/ *\n */g, '\n').trim();
}
