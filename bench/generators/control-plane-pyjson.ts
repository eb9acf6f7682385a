// Writes JS values the way Python's json.dumps(ensure_ascii=False) does, so generated ledgers
// look and hash exactly like the real writer's. Floats are marked (PyFloat) because JS cannot
// tell 950.0 from 950 and Python writes them differently.

import { compareCodePoints, pyJsonString } from '../../src/formats/control-plane/python-json.js';

/** A number Python holds as a float (written `950.0`, not `950`). */
export class PyFloat {
  constructor(readonly value: number) {}

  toString(): string {
    const v = this.value;
    // Python's repr and JS agree on the shortest round-trip digits inside this range.
    if (!Number.isFinite(v) || (v !== 0 && (Math.abs(v) < 1e-4 || Math.abs(v) >= 1e16))) {
      throw new RangeError(`PyFloat ${v} is outside the range the generator writes`);
    }
    return Number.isInteger(v) ? `${v}.0` : String(v);
  }
}

export type PyValue = string | number | boolean | null | PyFloat | PyValue[] | { [key: string]: PyValue | undefined };

/** `json.dumps(value, ensure_ascii=False, sort_keys=sortKeys)`; undefined members are skipped. */
export function pyDumps(value: PyValue, sortKeys: boolean): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return pyJsonString(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError(`${value} is not an int; wrap floats in PyFloat`);
    return String(value);
  }
  if (value instanceof PyFloat) return value.toString();
  if (Array.isArray(value)) return `[${value.map((v) => pyDumps(v, sortKeys)).join(', ')}]`;
  const keys = Object.keys(value).filter((k) => value[k] !== undefined);
  if (sortKeys) keys.sort(compareCodePoints);
  return `{${keys.map((k) => `${pyJsonString(k)}: ${pyDumps(value[k]!, sortKeys)}`).join(', ')}}`;
}
