// The one streamer every parser shares. Sanitized text flows through; only a tail that may begin
// a call marker is held back. When a region's opening marker arrives the region is collected
// (scanning each character once) until its end marker, a balanced value's end, or the end of the
// output; then the parser's parseRegion turns it into calls, emitted at once. A whole-output parse
// is this streamer fed a single delta, so streamed and whole results agree for any chunking.

import { BalancedScanner } from './balanced-scanner.js';
import { heldTailLength, MarkerSearch, type MarkerHit } from './markers.js';
import { ReasoningSanitizer, type SanitizedPiece } from './reasoning-sanitizer.js';
import type { ParseError, ParseOptions, ParseResult, ParserDefinition, RegionRule, StreamEvent, ToolCall, ToolCallStreamer } from './types.js';

interface OpenRegion {
  rule: RegionRule;
  /** The body collected since the last callEnd (or the opener). */
  piece: string;
  /** The region's whole text, markers included, in case it has to go back to the content. */
  raw: string;
  callsBefore: number;
  /** A piece of the region was read as a message (content or reasoning) rather than a call. */
  readAsMessage: boolean;
  /** The markers that end the region (or a call in it), found in linear time. */
  ends: readonly string[];
  endSearch: MarkerSearch;
  scanner: BalancedScanner | null;
}

type BalancedClose = { balanced: 'json' | 'python'; includeOpen: boolean };

function balancedClose(close: RegionRule['close']): BalancedClose | null {
  return close !== null && typeof close === 'object' && !Array.isArray(close) ? (close as BalancedClose) : null;
}

/** The literal markers that end a region (none for balanced values and stray markers). */
function closeMarkers(close: RegionRule['close']): readonly string[] {
  if (typeof close === 'string') return [close];
  return Array.isArray(close) ? close : [];
}

export class RegionStreamer implements ToolCallStreamer {
  private readonly sanitizer = new ReasoningSanitizer();
  private readonly openers: string[];
  private pending = '';
  /** How many characters of sanitized text were consumed before \`pending\` (its absolute offset). */
  private consumed = 0;
  private readonly openerSearch: MarkerSearch;
  /** The openers that count after content has begun (start-only ones left out). */
  private readonly laterSearch: MarkerSearch;
  /** Whether any non-blank content was emitted (start-only openers no longer count). */
  private hasText = false;
  private region: OpenRegion | null = null;
  /** Separator characters after a call, dropped if another call follows. */
  private filler = '';
  private afterCall = false;
  private finished = false;
  private readonly calls: ToolCall[] = [];
  private readonly errors: ParseError[] = [];
  private content = '';
  private reasoning = '';
  private events: StreamEvent[] = [];

  constructor(
    private readonly def: ParserDefinition,
    private readonly options: ParseOptions = {},
  ) {
    this.openers = def.regions.map((r) => r.open);
    this.openerSearch = new MarkerSearch(this.openers);
    this.laterSearch = new MarkerSearch(def.regions.map((r) => (r.atStartOnly ? '' : r.open)));
  }

  /** Consume `count` characters from the front of the pending text. */
  private drop(count: number): void {
    this.pending = this.pending.slice(count);
    this.consumed += count;
  }

  push(delta: string): StreamEvent[] {
    if (this.finished) throw new Error('push() after finish(): start a new streamer for a new output');
    this.take(this.sanitizer.push(delta), false);
    return this.flushEvents();
  }

  finish(): StreamEvent[] {
    if (!this.finished) {
      this.finished = true;
      this.take(this.sanitizer.finish(), true);
    }
    return this.flushEvents();
  }

  result(): ParseResult {
    return {
      calls: this.calls.map((c) => ({ ...c })),
      content: this.content.trim() ? this.content : null,
      reasoning: this.reasoning || null,
      parse_errors: [...this.errors],
    };
  }

  private flushEvents(): StreamEvent[] {
    const out = this.events;
    this.events = [];
    return out;
  }

  private take(pieces: SanitizedPiece[], final: boolean): void {
    for (const p of pieces) {
      if (p.kind === 'reasoning') {
        this.reasoning += p.text;
        this.events.push({ type: 'reasoning', text: p.text });
      } else {
        this.pending += p.text;
        this.drain(false);
      }
    }
    if (final) this.drain(true);
  }

  private emitContent(text: string): void {
    if (!text) return;
    let rest = text;
    if (this.afterCall && this.def.betweenCalls) {
      let i = 0;
      while (i < rest.length && this.def.betweenCalls.includes(rest[i]!)) i++;
      this.filler += rest.slice(0, i);
      rest = rest.slice(i);
      if (!rest) return;
      rest = this.filler + rest;
      this.filler = '';
    }
    this.afterCall = false;
    if (!this.hasText && rest.trim()) this.hasText = true;
    this.content += rest;
    this.events.push({ type: 'content', text: rest });
  }

  private drain(final: boolean): void {
    for (;;) {
      if (!this.region) {
        const hit = this.findOpener();
        // A longer opener may still complete at (or before) the hit, e.g. "[TOOL_CALLS]" over "[".
        const held = final ? 0 : heldTailLength(this.pending, this.openers);
        if (hit && held > 0 && this.pending.length - held <= hit.index) {
          this.emitContent(this.pending.slice(0, this.pending.length - held));
          this.drop(this.pending.length - held);
          return;
        }
        if (hit) {
          this.emitContent(this.pending.slice(0, hit.index));
          this.drop(hit.index);
          this.filler = '';
          this.openRegion(this.def.regions[hit.which]!);
          continue;
        }
        this.emitContent(this.pending.slice(0, this.pending.length - held));
        this.drop(this.pending.length - held);
        if (final) this.filler = '';
        return;
      }
      if (!this.advanceRegion(this.region, final)) return;
    }
  }

  /** The earliest opener in pending text; start-only openers count only before any content or call. */
  private findOpener(): MarkerHit | null {
    const hit = this.openerSearch.earliest(this.pending, this.consumed);
    if (!hit || !this.def.regions[hit.which]!.atStartOnly) return hit;
    const atStart = this.calls.length === 0 && !this.hasText && !this.pending.slice(0, hit.index).trim();
    if (atStart) return hit;
    return this.laterSearch.earliest(this.pending, this.consumed);
  }

  private openRegion(rule: RegionRule): void {
    const balanced = balancedClose(rule.close);
    const includeOpen = balanced?.includeOpen ?? false;
    const closes = closeMarkers(rule.close);
    const ends = rule.callEnd ? [...closes, rule.callEnd] : closes;
    this.region = {
      rule,
      piece: '',
      raw: includeOpen ? '' : rule.open,
      callsBefore: this.calls.length,
      readAsMessage: false,
      ends,
      endSearch: new MarkerSearch(ends),
      scanner: balanced ? new BalancedScanner(balanced.balanced) : null,
    };
    // The opener of a balanced value is its first character: it stays in the text to scan.
    if (!includeOpen) this.drop(rule.open.length);
  }

  /** Consume pending text into the open region; true when the region ended (keep draining). */
  private advanceRegion(region: OpenRegion, final: boolean): boolean {
    const { rule } = region;
    if (rule.close === null) {
      this.closeRegion(region, false);
      return true;
    }
    if (region.scanner) {
      const end = region.scanner.scan(this.pending);
      if (end >= 0) {
        this.collect(region, this.pending.slice(0, end));
        this.drop(end);
        this.closeRegion(region, false);
        return true;
      }
      this.collect(region, this.pending);
      this.drop(this.pending.length);
      if (final) this.closeRegion(region, true);
      return final;
    }
    const markers = region.ends;
    const hit = region.endSearch.earliest(this.pending, this.consumed);
    if (hit) {
      this.collect(region, this.pending.slice(0, hit.index));
      region.raw += hit.marker;
      this.drop(hit.index + hit.marker.length);
      if (rule.callEnd !== undefined && hit.which === markers.length - 1) {
        this.parsePiece(region, false);
        return true;
      }
      this.closeRegion(region, false);
      return true;
    }
    const held = final ? 0 : heldTailLength(this.pending, markers);
    this.collect(region, this.pending.slice(0, this.pending.length - held));
    this.drop(this.pending.length - held);
    if (final) this.closeRegion(region, true);
    return final;
  }

  private collect(region: OpenRegion, text: string): void {
    region.piece += text;
    region.raw += text;
  }

  private parsePiece(region: OpenRegion, truncated: boolean): void {
    const piece = region.piece;
    region.piece = '';
    let parsed;
    try {
      parsed = this.def.parseRegion(piece, { rule: region.rule, tools: this.options.tools, truncated });
    } catch (err) {
      // A parser must not throw; if one does, the output is still answered, with the reason.
      parsed = { calls: [], errors: [{ code: 'parser_failure', message: `${this.def.id}: ${(err as Error).message}` }] };
    }
    this.errors.push(...parsed.errors);
    if (parsed.reasoning !== undefined || parsed.content !== undefined) region.readAsMessage = true;
    if (parsed.reasoning) this.addReasoning(parsed.reasoning);
    if (parsed.content) this.emitContent(parsed.content);
    for (const call of parsed.calls) this.addCall(call);
  }

  /** Reasoning a parser found in a region (Harmony's analysis channel), kept apart like leaked blocks. */
  private addReasoning(text: string): void {
    const piece = this.reasoning ? `\n${text}` : text;
    this.reasoning += piece;
    this.events.push({ type: 'reasoning', text: piece });
  }

  private closeRegion(region: OpenRegion, truncated: boolean): void {
    this.region = null;
    this.parsePiece(region, truncated);
    if (this.calls.length > region.callsBefore) {
      this.afterCall = true;
      return;
    }
    if (region.readAsMessage) return;
    // Nothing in the region was a call: it was text after all (unless it was only markers; a
    // marker whose value never began, as in "<function_call> hello", is text too).
    if (region.scanner?.failed || !this.isOnlyMarkers(region.raw)) {
      // A one-character opener ("[" or "{") is often just text: no error for those.
      if (region.rule.open.length > 1) this.errors.push({ code: 'no_call_in_region', message: `${this.def.id}: a "${region.rule.open.trim()}" region held no readable call; kept as content` });
      this.emitContent(region.raw);
    }
  }

  private isOnlyMarkers(raw: string): boolean {
    let rest = raw;
    for (const r of this.def.regions) {
      rest = rest.split(r.open).join('');
      for (const close of closeMarkers(r.close)) rest = rest.split(close).join('');
      if (r.callEnd) rest = rest.split(r.callEnd).join('');
    }
    return rest.trim() === '';
  }

  private addCall(call: ToolCall): void {
    const index = this.calls.length;
    this.calls.push(call);
    this.events.push({ type: 'call', index, name: call.name });
    this.events.push({ type: 'arguments', index, text: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) });
  }
}
