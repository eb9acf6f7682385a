// Bounded projection of a line too large to parse (a raw `llm:request` of tens of megabytes):
// read top-level string fields from the decoded head with anchored, length-capped patterns.

/** Never scan more than this much of a head, whatever the pipeline hands us. */
export const HEAD_SCAN_CHARS = 64 * 1024;

/**
 * The region of the head that holds top-level keys. Amplifier writes scalar keys before the big
 * `data` (events) or `content` (transcript) value, so stopping there keeps a nested `"event"` or
 * `"role"` inside the payload from being mistaken for the line's own.
 */
export function topLevelRegion(head: string, bigKeys: readonly string[]): string {
  const region = head.length > HEAD_SCAN_CHARS ? head.slice(0, HEAD_SCAN_CHARS) : head;
  let cut = region.length;
  for (const key of bigKeys) {
    const at = region.indexOf(`"${key}":`);
    if (at !== -1 && at < cut) cut = at;
  }
  return region.slice(0, cut);
}

/** The first `"key": "<string up to max chars>"` in `region`, JSON-unescaped; undefined if absent. */
export function scanString(region: string, key: string, max = 200): string | undefined {
  const re = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.){0,${max}})"`);
  const m = re.exec(region);
  if (!m) return undefined;
  try {
    return JSON.parse(`"${m[1]}"`) as string;
  } catch {
    return m[1];
  }
}

/** The first `"key": <number>` in `region`. */
export function scanNumber(region: string, key: string): number | undefined {
  const m = new RegExp(`"${key}"\\s*:\\s*(-?\\d{1,18}(?:\\.\\d{1,12})?)`).exec(region);
  return m ? Number(m[1]) : undefined;
}
