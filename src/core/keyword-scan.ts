// Which rules' keywords occur in a text, in one pass (an Aho–Corasick automaton compiled to a
// dense transition table). Redaction runs a rule's regex only when one of its keywords is present,
// so a text is read once by this scan instead of once per rule. ASCII letters match in either case
// (a superset of what a case-sensitive pattern needs, so a rule is never skipped wrongly); other
// characters exactly.
//
// The table has one column per character that occurs in some keyword (upper- and lower-case
// letters share one), plus column 0 for every other character, which always leads back to the
// start. The scanner is built on the first redaction of a command, so building it is start-up
// time: only the trie and its failure links are built; each other transition is worked out the
// first time a scan takes it.

const ASCII = 128;

export class KeywordScanner {
  /** Column of each ASCII code; 0 for a character no keyword holds. */
  private readonly columnOf: Uint8Array;
  private readonly columns: number;
  /** next[state * columns + column] → state; -1 until first taken (see transition). */
  private readonly next: Int32Array;
  /** Failure link of each state: the longest proper suffix of its path that is a trie state. */
  private readonly fail: Int32Array;
  /** Rules whose keyword ends at each state (including through failure links); null when none. */
  private readonly hits: (number[] | null)[];
  /** Rules without keywords: candidates for every text. */
  private readonly always: number[];
  /** Stamp per rule: equal to `stamp` when the rule was already found in the current text. */
  private readonly seen: Int32Array;
  private stamp = 0;

  /** `keywordsByRule[i]` are rule i's keywords; a rule without keywords is always a candidate. */
  constructor(keywordsByRule: readonly (readonly string[])[]) {
    const lowered = keywordsByRule.map((keywords) => keywords.map(asciiLower));
    this.columnOf = new Uint8Array(ASCII);
    let columns = 1;
    let maxStates = 1;
    for (const keywords of lowered) {
      for (const kw of keywords) {
        maxStates += kw.length;
        for (let i = 0; i < kw.length; i++) {
          const code = kw.charCodeAt(i);
          if (this.columnOf[code] !== 0) continue;
          this.columnOf[code] = columns;
          if (code >= 97 && code <= 122) this.columnOf[code - 32] = columns;
          columns++;
        }
      }
    }
    this.columns = columns;

    // The trie. -1 marks a transition not known yet: the start state's are 0, the others are
    // filled in by `transition` when first taken, so building costs the keywords' length, not
    // the whole table, and a scan pays only for the transitions its texts take.
    const next = new Int32Array(maxStates * columns).fill(-1);
    const own: number[][] = [[]];
    const children: number[][] = [[]];
    lowered.forEach((keywords, rule) => {
      for (const kw of keywords) {
        let s = 0;
        for (let i = 0; i < kw.length; i++) {
          const column = this.columnOf[kw.charCodeAt(i)]!;
          const at = s * columns + column;
          if (next[at] === -1) {
            next[at] = own.length;
            own.push([]);
            children.push([]);
            children[s]!.push(column);
          }
          s = next[at]!;
        }
        if (!own[s]!.includes(rule)) own[s]!.push(rule);
      }
    });
    for (let c = 0; c < columns; c++) if (next[c] === -1) next[c] = 0;
    this.next = next;
    this.fail = new Int32Array(own.length);

    // Breadth-first: a state's failure state is shallower, so it is complete (failure link and
    // the rules it reports) before the state takes them over.
    const queue = children[0]!.map((c) => next[c]!);
    for (let qi = 0; qi < queue.length; qi++) {
      const s = queue[qi]!;
      const f = this.fail[s]!;
      for (const r of own[f]!) if (!own[s]!.includes(r)) own[s]!.push(r);
      for (const c of children[s]!) {
        const t = next[s * columns + c]!;
        this.fail[t] = this.transition(f, c);
        queue.push(t);
      }
    }
    this.hits = own.map((rules) => (rules.length > 0 ? rules : null));
    this.always = lowered.flatMap((k, rule) => (k.length === 0 ? [rule] : []));
    this.seen = new Int32Array(keywordsByRule.length);
  }

  /**
   * The state after `s` reads a character of `column`, remembered for the next time: the trie's
   * edge when there is one, else the transition of the failure state (the start state knows all
   * of its own).
   */
  private transition(s: number, column: number): number {
    const { next, fail, columns } = this;
    let f = s;
    while (next[f * columns + column] === -1) f = fail[f]!;
    const t = next[f * columns + column]!;
    for (let p = s; p !== f; p = fail[p]!) next[p * columns + column] = t;
    return t;
  }

  /** The rules (indexes) with a keyword in `text`. */
  rulesIn(text: string): number[] {
    const stamp = ++this.stamp;
    const seen = this.seen;
    const rules = [...this.always];
    const { next, hits, columnOf, columns } = this;
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code < ASCII) {
        const column = columnOf[code]!;
        const t = next[s * columns + column]!;
        s = t === -1 ? this.transition(s, column) : t;
      } else s = 0;
      const h = hits[s];
      if (h !== null) {
        for (const r of h!) {
          if (seen[r] !== stamp) {
            seen[r] = stamp;
            rules.push(r);
          }
        }
      }
    }
    return rules;
  }
}

/** `kw` with ASCII letters in lower case; an error for a keyword the scan cannot fold. */
function asciiLower(kw: string): string {
  for (let i = 0; i < kw.length; i++) {
    if (kw.charCodeAt(i) >= ASCII) throw new Error(`Keyword "${kw}" is not ASCII; the keyword scan only folds ASCII.`);
  }
  return kw.toLowerCase();
}
