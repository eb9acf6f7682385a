// Where a JSON (or Python literal) value ends, found one character at a time so a streamed value
// is scanned once in total: depth and string state carry over between deltas. Linear in the
// input at any nesting depth (a counter, no recursion).

export type LiteralSyntax = 'json' | 'python';

export class BalancedScanner {
  private depth = 0;
  private quote: string | null = null;
  private escaped = false;
  private started = false;
  /** The value cannot start here (the first non-blank character is not a bracket). */
  failed = false;

  constructor(private readonly syntax: LiteralSyntax) {}

  /**
   * Scan `text`; returns the index just past the value's closing bracket, or -1 when the value
   * continues beyond `text` (or `failed` became true: then the value ends at `failedAt`).
   */
  scan(text: string): number {
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (this.quote !== null) {
        if (this.escaped) this.escaped = false;
        else if (ch === 92 /* \ */) this.escaped = true;
        else if (ch === this.quote.charCodeAt(0)) this.quote = null;
        continue;
      }
      if (!this.started) {
        if (ch === 32 || ch === 10 || ch === 13 || ch === 9) continue;
        if (ch !== 91 /* [ */ && ch !== 123 /* { */) {
          this.failed = true;
          return i;
        }
        this.started = true;
      }
      if (ch === 34 /* " */ || (this.syntax === 'python' && ch === 39) /* ' */) this.quote = String.fromCharCode(ch);
      else if (ch === 91 || ch === 123 || (this.syntax === 'python' && ch === 40) /* ( */) this.depth++;
      else if (ch === 93 || ch === 125 || (this.syntax === 'python' && ch === 41)) {
        this.depth--;
        if (this.depth <= 0) return i + 1;
      }
    }
    return -1;
  }
}
