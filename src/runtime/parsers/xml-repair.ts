// Stage 3 for XML/tag formats (seed §5): models leave parameter tags unclosed, quote attributes
// any way (or not at all) and stop mid-block. These readers accept all of that, in linear time:
// an unclosed element ends where the next one starts, at a stop marker, or at the end of the text.

export interface TaggedElement {
  /** Offset of the opening marker in the text. */
  start: number;
  /** What sits between the opening marker and its '>' (e.g. the name in `<parameter=name>`). */
  head: string;
  value: string;
  /** False when the closing tag was missing (the element was repaired). */
  closed: boolean;
  /** False when the text ended (or the next element began) inside the opening tag. */
  headClosed: boolean;
}

/** Next occurrence of a marker at or after a position, remembered so repeated look-ups stay linear. */
class NextFinder {
  private at = -2;
  private from = -1;
  constructor(private readonly text: string, private readonly marker: string) {}
  next(from: number): number {
    if (this.at === -1 && from >= this.from) return -1;
    if (this.at >= from && this.from <= from) return this.at;
    this.from = from;
    this.at = this.text.indexOf(this.marker, from);
    return this.at;
  }
}

/**
 * The elements opened by `open` in `text`. When `open` ends with '>' there is no head;
 * otherwise the head runs to the next '>'. The value runs to `close`, or — repairing an
 * unclosed tag — to the next `open`, to any of `stops`, or to the end.
 */
export function extractElements(text: string, open: string, close: string, stops: readonly string[] = []): TaggedElement[] {
  const out: TaggedElement[] = [];
  const opens = new NextFinder(text, open);
  const closes = new NextFinder(text, close);
  const stopFinders = stops.map((s) => new NextFinder(text, s));
  const gts = new NextFinder(text, '>');
  let pos = opens.next(0);
  while (pos >= 0) {
    let valueStart = pos + open.length;
    let head = '';
    if (!open.endsWith('>')) {
      const gt = gts.next(valueStart);
      const nextOpen = opens.next(valueStart);
      // A head cut off by the end of the text (or by the next element) is a truncated block.
      if (gt < 0 || (nextOpen >= 0 && nextOpen < gt)) {
        out.push({ start: pos, head: text.slice(valueStart, nextOpen >= 0 ? nextOpen : text.length), value: '', closed: false, headClosed: false });
        if (nextOpen < 0) break;
        pos = nextOpen;
        continue;
      }
      head = text.slice(valueStart, gt);
      valueStart = gt + 1;
    }
    let end = text.length;
    let closed = false;
    const c = closes.next(valueStart);
    if (c >= 0) {
      end = c;
      closed = true;
    }
    const nextOpen = opens.next(valueStart);
    if (nextOpen >= 0 && nextOpen < end) {
      end = nextOpen;
      closed = false;
    }
    for (const f of stopFinders) {
      const s = f.next(valueStart);
      if (s >= 0 && s < end) {
        end = s;
        closed = false;
      }
    }
    out.push({ start: pos, head, value: text.slice(valueStart, end), closed, headClosed: true });
    pos = opens.next(closed ? end + close.length : end);
  }
  return out;
}

/** An attribute's value from a tag's attribute text: name="v", name='v' or name=v. */
export function readAttribute(attributes: string, name: string): string | null {
  const re = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"?|'([^']*)'?|([^\\s"'>]+))`);
  const m = re.exec(attributes);
  if (!m) return null;
  return m[1] ?? m[2] ?? m[3] ?? '';
}

/** Remove one leading and one trailing newline: the formats put values on their own lines. */
export function trimValueNewlines(value: string): string {
  let v = value;
  if (v.startsWith('\r\n')) v = v.slice(2);
  else if (v.startsWith('\n')) v = v.slice(1);
  if (v.endsWith('\r\n')) v = v.slice(0, -2);
  else if (v.endsWith('\n')) v = v.slice(0, -1);
  return v;
}
