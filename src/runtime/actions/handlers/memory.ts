// save_memory and search_memory: the session's long-term notes (AgentMemory), which outlive the
// context window and are inherited by a handoff child.

import { z } from 'zod';
import type { MemoryHit } from '../../memory/memory.js';
import { specOf } from '../tool-spec.js';
import type { ActionContext, ActionHandler, HandlerOutcome } from '../types.js';

const NO_MEMORY = 'Memory is not available in this run (no memory database was opened), so nothing can be saved or searched.';

/** A memory is a note, not a file dump: longer content belongs in a workspace file. */
export const MAX_MEMORY_CHARS = 8000;

const saveInput = z
  .object({
    content: z.string().trim().min(1).max(MAX_MEMORY_CHARS).describe('The note to remember: a fact, decision or finding worth keeping.'),
    tags: z.array(z.string().max(64)).max(20).optional().describe('Short labels to find it by.'),
  })
  .strict();

const searchInput = z
  .object({
    query: z.string().describe('Words to look for (plain words; no query syntax). Empty lists the newest notes.'),
    limit: z.number().int().min(1).max(50).optional().describe('How many notes to return (1–50, default 5).'),
  })
  .strict();

function withMemory(ctx: ActionContext, run: (memory: NonNullable<ActionContext['memory']>) => Promise<HandlerOutcome>): Promise<HandlerOutcome> {
  return ctx.memory ? run(ctx.memory) : Promise.resolve({ isError: true, content: NO_MEMORY });
}

function hitLine(hit: MemoryHit, index: number, own: string): string {
  const from = hit.sessionId === own ? '' : `, from session ${hit.sessionId}`;
  const tags = hit.tags.length ? `, tags: ${hit.tags.join(', ')}` : '';
  return `${index + 1}. [#${hit.id}, ${hit.createdAt}${from}${tags}] ${hit.content}`;
}

export const saveMemoryHandler: ActionHandler<typeof saveInput> = {
  spec: specOf('save_memory', 'Save a note to long-term memory. It survives context compaction and is passed on when the work is handed to a fresh session.', saveInput),
  input: saveInput,
  run: (args, ctx) =>
    withMemory(ctx, async (memory) => {
      const { id } = await memory.save(args.content, args.tags ?? []);
      return { content: `Saved memory #${id}.`, data: { id } };
    }),
};

export const searchMemoryHandler: ActionHandler<typeof searchInput> = {
  spec: specOf('search_memory', 'Search long-term memory (this session’s notes and those it inherited) by words; best matches first.', searchInput),
  input: searchInput,
  run: (args, ctx) =>
    withMemory(ctx, async (memory) => {
      const hits = await memory.search(args.query, args.limit ?? 5);
      if (hits.length === 0) return { content: args.query.trim() ? `No memory matches "${args.query}".` : 'Memory is empty.', data: { hits: [] } };
      return { content: hits.map((h, i) => hitLine(h, i, memory.sessionId)).join('\n'), data: { hits } };
    }),
};
