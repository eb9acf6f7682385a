// The max_bytes cut for the overview: items are dropped from the ends of the listed arrays,
// longest list first, until the serialised result fits; `truncated: true` says so. Everything
// else (the about paragraph above all) is never cut.

type Path = readonly string[];

function getAt(body: Record<string, unknown>, path: Path): unknown[] {
  let v: unknown = body;
  for (const k of path) v = (v as Record<string, unknown>)[k];
  return v as unknown[];
}

/** A copy of `body` with the array at `path` replaced (objects on the way copied, the rest shared). */
function setAt(body: Record<string, unknown>, path: Path, value: unknown[]): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined) return body;
  const inner = rest.length === 0 ? value : setAt(body[head] as Record<string, unknown>, rest, value);
  return { ...body, [head]: inner };
}

const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

/**
 * Fit `{status: 'ok', ...body}` into `maxBytes` by dropping the last items of the arrays at
 * `paths` (the list with most items left loses one first; ties go to the earlier path). Sizes
 * are tracked per item, so serialising happens once more at the end, not once per item. When
 * every list is empty and it still does not fit, the emptied result is returned (truncated).
 */
export function fitLists<B extends Record<string, unknown>>(body: B, paths: readonly Path[], maxBytes: number): B & { truncated?: true } {
  if (size({ status: 'ok', ...body }) <= maxBytes) return body;
  const lists = paths.map((path) => {
    const items = getAt(body, path);
    return { path, items, keep: items.length, sizes: items.map(size) };
  });
  let total = size({ status: 'ok', ...body, truncated: true });
  while (total > maxBytes) {
    let pick: (typeof lists)[number] | undefined;
    for (const l of lists) if (l.keep > 0 && (!pick || l.keep > pick.keep)) pick = l;
    if (!pick) break;
    pick.keep--;
    // An array of n items is '[' + items joined by ',' + ']': one comma goes with each item but the last.
    total -= pick.sizes[pick.keep]! + (pick.keep > 0 ? 1 : 0);
  }
  let out: Record<string, unknown> = body;
  for (const l of lists) if (l.keep < l.items.length) out = setAt(out, l.path, l.items.slice(0, l.keep));
  return { ...out, truncated: true } as B & { truncated: true };
}
