// Tool-call arguments as the runtime keeps them, and ids for calls that came without one; one
// definition for every protocol.

/** Arguments text as a JSON object, `{}` for nothing at all, else the raw text (never thrown away). */
export function readArguments(text: string): Record<string, unknown> | string {
  if (text.trim() === '') return {};
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : text;
  } catch {
    return text;
  }
}

/** Hands out ids for calls the provider left without one (`call_1`, `call_2`, …; one counter per client). */
export type IdMinter = () => string;

export function createIdMinter(): IdMinter {
  let n = 0;
  return () => `call_${++n}`;
}
