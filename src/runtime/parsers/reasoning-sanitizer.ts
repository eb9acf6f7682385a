// Stage 1 of the pipeline (seed §5): leaked reasoning is taken out before any parse attempt, so
// a call a model only thought about is never run and a stray </think> never breaks a parse.
// The reasoning text is kept (ParseResult.reasoning), not lost.

import { earliestMarker, heldTailLength } from './markers.js';

/** Reasoning blocks local models leak into their output, as [open, close] pairs. */
export const REASONING_TAGS: readonly (readonly [string, string])[] = [
  ['<think>', '</think>'],
  ['<thinking>', '</thinking>'],
  ['<reasoning>', '</reasoning>'],
  ['◁think▷', '◁/think▷'],
  ['<|begin_of_thought|>', '<|end_of_thought|>'],
];

const OPENERS = REASONING_TAGS.map(([open]) => open);
const CLOSERS = REASONING_TAGS.map(([, close]) => close);
const ALL = [...OPENERS, ...CLOSERS];

export interface SanitizedPiece {
  kind: 'content' | 'reasoning';
  text: string;
}

/**
 * A streaming sanitizer: text between an opening and its closing tag is reasoning; a closing tag
 * with no opening (the template opened the block in the prompt) is dropped; a block still open at
 * the end is reasoning up to the end. Only a tail that may begin a tag is ever held back.
 */
export class ReasoningSanitizer {
  private pending = '';
  private closer: string | null = null;
  private blocks = 0;

  push(delta: string): SanitizedPiece[] {
    this.pending += delta;
    return this.drain(false);
  }

  finish(): SanitizedPiece[] {
    return this.drain(true);
  }

  private drain(final: boolean): SanitizedPiece[] {
    const out: SanitizedPiece[] = [];
    const emit = (kind: SanitizedPiece['kind'], text: string) => {
      if (text) out.push({ kind, text });
    };
    for (;;) {
      if (this.closer === null) {
        const hit = earliestMarker(this.pending, ALL);
        if (hit) {
          emit('content', this.pending.slice(0, hit.index));
          this.pending = this.pending.slice(hit.index + hit.marker.length);
          // An opening tag starts a block; a stray closing tag is only dropped.
          if (hit.which < OPENERS.length) {
            this.closer = CLOSERS[hit.which]!;
            // Blocks are kept apart by a newline, so streamed and whole results agree.
            if (this.blocks++ > 0) emit('reasoning', '\n');
          }
          continue;
        }
        const held = final ? 0 : heldTailLength(this.pending, ALL);
        emit('content', this.pending.slice(0, this.pending.length - held));
        this.pending = this.pending.slice(this.pending.length - held);
        return out;
      }
      const end = this.pending.indexOf(this.closer);
      if (end >= 0) {
        emit('reasoning', this.pending.slice(0, end));
        this.pending = this.pending.slice(end + this.closer.length);
        this.closer = null;
        continue;
      }
      const held = final ? 0 : heldTailLength(this.pending, [this.closer]);
      emit('reasoning', this.pending.slice(0, this.pending.length - held));
      this.pending = this.pending.slice(this.pending.length - held);
      return out;
    }
  }
}

/** The pure form: the whole output → its content without reasoning, and the reasoning text. */
export function sanitizeReasoning(text: string): { content: string; reasoning: string | null } {
  const sanitizer = new ReasoningSanitizer();
  const pieces = [...sanitizer.push(text), ...sanitizer.finish()];
  const content = pieces.filter((p) => p.kind === 'content').map((p) => p.text).join('');
  const reasoning = pieces.filter((p) => p.kind === 'reasoning').map((p) => p.text).join('');
  return { content, reasoning: reasoning || null };
}
