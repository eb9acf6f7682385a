// The one streamer every parser shares. Sanitized text flows through; only a tail that may begin
// a call marker is held back. When a region's opening marker arrives the region is collected
// (scanning each character once) until its end marker, a balanced value's end, or the end of the
// output; then the parser's parseRegion turns it into calls, emitted at once. A whole-output parse
// is this streamer fed a single delta, so streamed and whole results agree for any chunking.

import { BalancedScanner } from './balanced-scanner.js';
import { earliestMarker, heldTailLength, type MarkerHit } from './markers.js';
import { ReasoningSanitizer, type SanitizedPiece } from './reasoning-sanitizer.js';
import type { ParseError, ParseOptions, ParseResult, ParserDefinition, RegionRule, StreamEvent, ToolCall, ToolCallStreamer } from './types.js';

interface OpenRegion {
  rule: RegionRule;
  /** The body collected since the last callEnd (or the opener). */
  piece: string;
  /** The region's whole text, markers included, in case it has to go back to the content. */
  raw: string;
  callsBefore: number;
  scanner: BalancedScanner | null;
}

export class RegionStreamer implements ToolCallStreamer {
  private readonly sanitizer = new ReasoningSanitizer();
  private readonly openers: string[];
  private pending = '';
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
          this.pending = this.pending.slice(this.pending.length - held);
          return;
        }
        if (hit) {
          this.emitContent(this.pending.slice(0, hit.index));
          this.pending = this.pending.slice(hit.index);
          this.filler = '';
          this.openRegion(this.def.regions[hit.which]!);
          continue;
        }
        this.emitContent(this.pending.slice(0, this.pending.length - held));
        this.pending = this.pending.slice(this.pending.length - held);
        if (final) this.filler = '';
        return;
      }
      if (!this.advanceRegion(this.region, final)) return;
    }
  }

  /** The earliest opener in pending text; start-only openers count only before any content or call. */
  private findOpener(): MarkerHit | null {
    const hit = earliestMarker(this.pending, this.openers);
    if (!hit || !this.def.regions[hit.which]!.atStartOnly) return hit;
    const atStart = this.calls.length === 0 && !this.content.trim() && !this.pending.slice(0, hit.index).trim();
    if (atStart) return hit;
    const later = this.def.regions.map((r) => (r.atStartOnly ? '' : r.open));
    return earliestMarker(this.pending, later);
  }

  private openRegion(rule: RegionRule): void {
    const close = rule.close;
    const includeOpen = close !== null && typeof close === 'object' && close.includeOpen;
    this.region = {
      rule,
      piece: '',
      raw: includeOpen ? '' : rule.open,
      callsBefore: this.calls.length,
      scanner: close !== null && typeof close === 'object' ? new BalancedScanner(close.balanced) : null,
    };
    // The opener of a balanced value is its first character: it stays in the text to scan.
    if (!includeOpen) this.pending = this.pending.slice(rule.open.length);
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
        this.pending = this.pending.slice(end);
        this.closeRegion(region, false);
        return true;
      }
      this.collect(region, this.pending);
      this.pending = '';
      if (final) this.closeRegion(region, true);
      return final;
    }
    const markers = rule.callEnd ? [rule.close as string, rule.callEnd] : [rule.close as string];
    const hit = earliestMarker(this.pending, markers);
    if (hit) {
      this.collect(region, this.pending.slice(0, hit.index));
      region.raw += hit.marker;
      this.pending = this.pending.slice(hit.index + hit.marker.length);
      if (hit.which === 1) {
        this.parsePiece(region, false);
        return true;
      }
      this.closeRegion(region, false);
      return true;
    }
    const held = final ? 0 : heldTailLength(this.pending, markers);
    this.collect(region, this.pending.slice(0, this.pending.length - held));
    this.pending = this.pending.slice(this.pending.length - held);
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
    for (const call of parsed.calls) this.addCall(call);
  }

  private closeRegion(region: OpenRegion, truncated: boolean): void {
    this.region = null;
    this.parsePiece(region, truncated);
    if (this.calls.length > region.callsBefore) {
      this.afterCall = true;
      return;
    }
    // Nothing in the region was a call: it was text after all (unless it was only markers).
    if (!this.isOnlyMarkers(region.raw)) {
      // A one-character opener ("[" or "{") is often just text: no error for those.
      if (region.rule.open.length > 1) this.errors.push({ code: 'no_call_in_region', message: `${this.def.id}: a "${region.rule.open.trim()}" region held no readable call; kept as content` });
      this.emitContent(region.raw);
    }
  }

  private isOnlyMarkers(raw: string): boolean {
    let rest = raw;
    for (const r of this.def.regions) {
      rest = rest.split(r.open).join('');
      if (typeof r.close === 'string') rest = rest.split(r.close).join('');
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
