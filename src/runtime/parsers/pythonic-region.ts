// The parse shared by the pythonic formats: a region holding `[f(a=1), g()]`.

import { parsePythonCalls, PythonSyntaxError } from './python-literal.js';
import type { RegionParse } from './types.js';

export function parsePythonicRegion(body: string, parserId: string, quietWhenNotCalls: boolean): RegionParse {
  if (!body.trim()) return { calls: [], errors: [] };
  try {
    return { calls: parsePythonCalls(body), errors: [] };
  } catch (err) {
    if (!(err instanceof PythonSyntaxError)) throw err;
    // A "[" that opens plain text is not an error worth reporting.
    return { calls: [], errors: quietWhenNotCalls ? [] : [{ code: 'bad_call', message: `${parserId}: not a list of calls (${err.message})` }] };
  }
}
