// Which rules' keywords occur in a text, in one pass (an Aho–Corasick automaton compiled to a
// dense transition table). Redaction runs a rule's regex only when one of its keywords is present,
// so a text is read once by this scan instead of once per rule. ASCII letters match in either case
// (a superset of what a case-sensitive pattern needs, so a rule is never skipped wrongly); other
// characters exactly.

const ALPHABET = 128;

export class KeywordScanner {
  /** next[state * ALPHABET + code] → state. */
  private readonly next: Int32Array;
  /** Rules whose keyword ends at each state (including through failure links); null when none. */
  private readonly hits: (number[] | null)[];
  private readonly ruleCount: number;
  /** Rules without keywords: candidates for every text. */
  private readonly always: number[];

  /** `keywordsByRule[i]` are rule i's keywords; a rule without keywords is always a candidate. */
  constructor(keywordsByRule: readonly (readonly string[])[]) {
    this.ruleCount = keywordsByRule.length;
    const goto: Map<number, number>[] = [new Map()];
    const out: Set<number>[] = [new Set()];
    keywordsByRule.forEach((keywords, rule) => {
      for (const kw of keywords) {
        let s = 0;
        for (const ch of kw.toLowerCase()) {
          const code = ch.charCodeAt(0);
          if (code >= ALPHABET) throw new Error(`Keyword "${kw}" is not ASCII; the keyword scan only folds ASCII.`);
          let t = goto[s]!.get(code);
          if (t === undefined) {
            t = goto.length;
            goto.push(new Map());
            out.push(new Set());
            goto[s]!.set(code, t);
          }
          s = t;
        }
        out[s]!.add(rule);
      }
    });
    this.always = keywordsByRule.flatMap((k, rule) => (k.length === 0 ? [rule] : []));
    // Breadth-first: each state's failure state is complete before its children are filled in.
    const states = goto.length;
    const next = new Int32Array(states * ALPHABET);
    const fail = new Int32Array(states);
    const queue: number[] = [];
    for (let c = 0; c < ALPHABET; c++) {
      const t = goto[0]!.get(c);
      if (t !== undefined) {
        next[c] = t;
        queue.push(t);
      }
    }
    for (let qi = 0; qi < queue.length; qi++) {
      const s = queue[qi]!;
      for (const r of out[fail[s]!]!) out[s]!.add(r);
      for (let c = 0; c < ALPHABET; c++) {
        const t = goto[s]!.get(c);
        if (t === undefined) next[s * ALPHABET + c] = next[fail[s]! * ALPHABET + c]!;
        else {
          fail[t] = next[fail[s]! * ALPHABET + c]!;
          next[s * ALPHABET + c] = t;
          queue.push(t);
        }
      }
    }
    // Upper-case letters move like their lower-case twins.
    for (let s = 0; s < states; s++) {
      for (let c = 65; c <= 90; c++) next[s * ALPHABET + c] = next[s * ALPHABET + c + 32]!;
    }
    this.next = next;
    this.hits = out.map((set) => (set.size > 0 ? [...set] : null));
    this.seen = new Int32Array(this.ruleCount);
  }

  /** Stamp per rule: equal to `stamp` when the rule was already found in the current text. */
  private readonly seen: Int32Array;
  private stamp = 0;

  /** The rules (indexes) with a keyword in `text`. */
  rulesIn(text: string): number[] {
    const stamp = ++this.stamp;
    const seen = this.seen;
    const rules = [...this.always];
    const next = this.next;
    const hits = this.hits;
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      s = code < ALPHABET ? next[s * ALPHABET + code]! : 0;
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
