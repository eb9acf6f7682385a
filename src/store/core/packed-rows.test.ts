// A packed row split into its columns (core/packed-rows.ts): NULLs, signs and commas in the text,
// and rows the statement could not have built (too few fields, a field that is no integer, no
// text at all) refused with what was wrong, never read as other numbers.

import { describe, expect, it } from 'vitest';
import { splitPackedRow } from './packed-rows.js';

describe('splitPackedRow', () => {
  it('gives the integers, NULL for an empty field, and everything after them as the text', () => {
    expect(splitPackedRow('7,,a,b', 2)).toEqual([7, null, 'a,b']);
    expect(splitPackedRow('-12,9007199254740991,', 2)).toEqual([-12, 9007199254740991, '']);
    expect(splitPackedRow('text only', 0)).toEqual(['text only']);
  });

  it('refuses a row cut short, naming how many fields it found', () => {
    expect(() => splitPackedRow('7', 2)).toThrow(/2 integer fields expected before the text, found 0 in "7"/);
    expect(() => splitPackedRow('7,8', 2)).toThrow(/found 1/);
    expect(() => splitPackedRow('', 1)).toThrow(/found 0/);
  });

  it('refuses a field that is not a safe integer, and a value that is not text', () => {
    expect(() => splitPackedRow('7,x1,t', 2)).toThrow(/field 2 is not an integer: "x1"/);
    expect(() => splitPackedRow('1.5,2,t', 2)).toThrow(/field 1 is not an integer/);
    expect(() => splitPackedRow('99999999999999999999,2,t', 2)).toThrow(/field 1 is not an integer/);
    expect(() => splitPackedRow(null, 1)).toThrow(/expected text, got null/);
    expect(() => splitPackedRow(42, 1)).toThrow(/expected text, got number/);
  });
});
