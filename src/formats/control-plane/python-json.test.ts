import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { computeEntryHash } from './chain.js';
import { canonicalPythonJson, compareCodePoints, pyJsonString } from './python-json.js';

const FIXTURES = fileURLToPath(new URL('../../../../shared/fixtures/control-plane/', import.meta.url));

describe('canonicalPythonJson', () => {
  it('sorts keys at every depth and uses Python separators', () => {
    expect(canonicalPythonJson('{"b":{"z":1,"a":[3,{"y":2,"x":1}]},"a":"s"}')).toBe('{"a": "s", "b": {"a": [3, {"x": 1, "y": 2}], "z": 1}}');
  });

  it('keeps number spellings that JSON.parse would lose', () => {
    expect(canonicalPythonJson('{"cost": 0.0, "n": 950.0, "e": 1e-05, "big": 12345678901234567890}')).toBe(
      '{"big": 12345678901234567890, "cost": 0.0, "e": 1e-05, "n": 950.0}',
    );
  });

  it('drops the named key only at the top level', () => {
    expect(canonicalPythonJson('{"entry_hash": "x", "m": {"entry_hash": "y"}}', 'entry_hash')).toBe('{"m": {"entry_hash": "y"}}');
  });

  it('keeps empty containers and literals', () => {
    expect(canonicalPythonJson('{ "a" : [ ] , "b" : { } , "c" : null , "d" : true , "e" : false }')).toBe('{"a": [], "b": {}, "c": null, "d": true, "e": false}');
  });

  it('re-escapes strings the way Python writes them with ensure_ascii=False', () => {
    // \u00e9 and \/ are not what Python writes: it writes é and /; control characters stay \u00XX lowercase.
    expect(canonicalPythonJson('{"s": "caf\\u00e9 a\\/b \\u001F \\n \\"q\\" \\\\"}')).toBe('{"s": "café a/b \\u001f \\n \\"q\\" \\\\"}');
    expect(canonicalPythonJson('{"s": "\\ud83d\\ude00"}')).toBe('{"s": "😀"}');
  });

  it('keeps U+2028, U+2029 and U+0085 raw, as Python does', () => {
    expect(canonicalPythonJson('{"s": "a\u2028b\u2029c\u0085d"}')).toBe('{"s": "a\u2028b\u2029c\u0085d"}');
  });

  it('sorts keys by code point, not UTF-16 unit', () => {
    // U+FF5E (one unit 0xFF5E) sorts before U+1F600 (surrogates 0xD83D…) by code point.
    expect(compareCodePoints('\uff5e', '😀')).toBeLessThan(0);
    expect('\uff5e' < '😀').toBe(false); // the JS order that would be wrong
    expect(canonicalPythonJson('{"😀": 1, "\uff5e": 2}')).toBe('{"\uff5e": 2, "😀": 1}');
  });

  it('rejects text that is not a JSON object', () => {
    expect(() => canonicalPythonJson('[1, 2]')).toThrow(SyntaxError);
    expect(() => canonicalPythonJson('{"a": 1')).toThrow(SyntaxError);
  });

  it('pyJsonString escapes only what Python escapes', () => {
    expect(pyJsonString('a"b\\c\td\u0001\u007f\u2028é')).toBe('"a\\"b\\\\c\\td\\u0001\u007f\u2028é"');
  });
});

describe('computeEntryHash against the real writer', () => {
  it('reproduces every entry_hash of the normal fixture ledgers', () => {
    let checked = 0;
    for (const rel of ['HO2/ledger/ho2m.jsonl', 'HO1/ledger/ho1m.jsonl', 'HOT/ledger/governance.jsonl']) {
      for (const line of readFileSync(`${FIXTURES}normal/${rel}`, 'utf8').split('\n')) {
        if (!line) continue;
        const stored = (JSON.parse(line) as { entry_hash: string }).entry_hash;
        expect(computeEntryHash(line)).toBe(stored);
        checked++;
      }
    }
    expect(checked).toBe(1325);
  });

  it('changes when any byte of the entry changes', () => {
    const line = '{"event_type": "X", "metadata": {"n": 950.0}, "entry_hash": "ignored"}';
    const expected = createHash('sha256').update('{"event_type": "X", "metadata": {"n": 950.0}}').digest('hex');
    expect(computeEntryHash(line)).toBe(expected);
    expect(computeEntryHash(line.replace('950.0', '950'))).not.toBe(expected);
  });
});
