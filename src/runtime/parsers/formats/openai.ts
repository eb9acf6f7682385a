// OpenAI gpt-oss, the Harmony format written out as text. Every message is
// `<|start|>ROLE<|channel|>CHANNEL[ to=RECIPIENT][ <|constrain|>TYPE]<|message|>TEXT` ended by
// <|end|>, <|call|> (a tool call) or <|return|> (the last answer). The completion usually starts
// at `<|channel|>` because the prompt ends with `<|start|>assistant`, and the recipient may sit in
// the role part instead (`<|start|>assistant to=functions.f<|channel|>commentary json<|message|>`).
// An assistant message to `functions.NAME` is a call whose text is its JSON arguments; the
// analysis channel is reasoning; final and commentary (a preamble) are content; messages of other
// roles (an echoed prompt, tool results) are dropped.

import { argumentsFromText } from '../call-shapes.js';
import type { ParserDefinition, RegionContext, RegionParse } from '../types.js';

const START = '<|start|>';
const CHANNEL = '<|channel|>';
const MESSAGE = '<|message|>';
const ENDS = ['<|end|>', '<|call|>', '<|return|>'] as const;

interface HarmonyHeader {
  role: string;
  channel: string | null;
  recipient: string | null;
}

function readHeader(header: string, roleGiven: boolean): HarmonyHeader {
  const channelAt = header.indexOf(CHANNEL);
  const rolePart = roleGiven ? (channelAt >= 0 ? header.slice(0, channelAt) : header) : '';
  const role = /^\s*([^\s<]+)/.exec(rolePart)?.[1] ?? 'assistant';
  const channel = channelAt >= 0 ? (/^\s*([^\s<]+)/.exec(header.slice(channelAt + CHANNEL.length))?.[1] ?? null) : null;
  const recipient = /(?:^|\s)to=([^\s<]+)/.exec(header)?.[1] ?? null;
  return { role, channel, recipient };
}

/** One message: `header<|message|>text`, the header starting at the role or (when !roleGiven) at <|channel|>. */
function parseMessage(segment: string, roleGiven: boolean, out: RegionParse): void {
  const at = segment.indexOf(MESSAGE);
  // A header cut off before <|message|> (e.g. the trailing `<|start|>assistant` of a prompt) says nothing.
  if (at < 0) return;
  const header = readHeader(segment.slice(0, at), roleGiven);
  const text = segment.slice(at + MESSAGE.length);
  // Only the assistant's messages are output; a role like `functions.f to=assistant` is a tool result.
  if (header.role !== 'assistant') return;
  if (header.recipient && header.recipient !== 'assistant' && header.recipient !== 'user' && header.recipient !== 'all') {
    const name = header.recipient.replace(/^functions\./, '');
    const parsed = argumentsFromText(text, name, 'openai');
    out.calls.push({ name, arguments: parsed.arguments });
    if (parsed.error) out.errors.push(parsed.error);
    return;
  }
  if (header.channel === 'analysis') out.reasoning = out.reasoning ? `${out.reasoning}\n${text}` : text;
  else out.content = (out.content ?? '') + text;
}

function parseHarmonyRegion(body: string, ctx: RegionContext): RegionParse {
  // The region is read even when it holds no call: its text is content or reasoning or nothing.
  const out: RegionParse = { calls: [], errors: [], content: '' };
  // A message whose end marker is missing runs into the next <|start|>: split there.
  const segments = body.split(START);
  segments.forEach((segment, i) => parseMessage(i === 0 && ctx.rule.open === CHANNEL ? CHANNEL + segment : segment, i > 0 || ctx.rule.open === START, out));
  return out;
}

export const openai: ParserDefinition = {
  id: 'openai',
  family: 'json',
  format: '<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>; analysis → reasoning, final → content (<|start|>assistant… headers too)',
  regions: [
    { open: START, close: ENDS },
    { open: CHANNEL, close: ENDS },
    // End markers outside a message (e.g. after a message whose header was lost) are not text.
    ...ENDS.map((end) => ({ open: end, close: null })),
  ],
  parseRegion: parseHarmonyRegion,
};
