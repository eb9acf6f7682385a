// Text that should hold a structured value (an object or array parameter, an argument blob):
// classified, then repaired as JSON or read as a Python literal. Null when neither works.

import { classifyOutput } from './classify.js';
import { repairJson } from './json-repair.js';
import { parsePythonLiteral, PythonSyntaxError } from './python-literal.js';

export function readStructuredValue(text: string): { value: unknown } | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  try {
    return { value: JSON.parse(trimmed) };
  } catch {
    // not plain JSON: try the forms models actually write
  }
  // Python dicts ({'k': 'v', 'b': True}) are read exactly before JSON repair guesses at them.
  if (classifyOutput(trimmed) !== 'xml') {
    try {
      return { value: parsePythonLiteral(trimmed) };
    } catch (err) {
      if (!(err instanceof PythonSyntaxError)) throw err;
    }
  }
  const repaired = repairJson(trimmed);
  return repaired ? { value: repaired.value } : null;
}
