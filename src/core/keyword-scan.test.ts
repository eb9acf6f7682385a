import { describe, expect, it } from 'vitest';
import { KeywordScanner } from './keyword-scan.js';

/** What the scanner must answer, the slow way: rules with a keyword in `text`, ASCII case aside. */
function naive(keywordsByRule: string[][], text: string): number[] {
  const folded = text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return keywordsByRule.flatMap((keywords, rule) => (keywords.length === 0 || keywords.some((k) => folded.includes(k.toLowerCase())) ? [rule] : []));
}

let seed = 5;
function next(n: number): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) % n;
}

describe('KeywordScanner', () => {
  it('finds exactly the rules whose keywords occur, overlapping and nested ones too', () => {
    const rules = [['he', 'she'], ['his', 'hers'], ['sk-', 'sk-ant-'], ['://'], [], ['AKIA']];
    const scanner = new KeywordScanner(rules);
    expect(scanner.rulesIn('ushers').sort()).toEqual([0, 1, 4]);
    expect(scanner.rulesIn('a SK-ANT- key').sort()).toEqual([2, 4]);
    expect(scanner.rulesIn('id akia… https://x').sort()).toEqual([3, 4, 5]);
    expect(scanner.rulesIn('a quiet text — ünïcode')).toEqual([4]);
    expect(scanner.rulesIn('')).toEqual([4]);
  });

  it('answers as a plain search does on random texts over the keywords’ alphabet', () => {
    const alphabet = 'abcAB-:/_. é';
    const word = (n: number) => Array.from({ length: n }, () => alphabet[next(alphabet.length)]!).join('').replace(/[é ]/g, 'a');
    const rules = Array.from({ length: 12 }, () => Array.from({ length: 1 + next(3) }, () => word(1 + next(4))));
    const scanner = new KeywordScanner(rules);
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: next(40) }, () => alphabet[next(alphabet.length)]!).join('');
      expect(scanner.rulesIn(text).sort((a, b) => a - b), JSON.stringify(text)).toEqual(naive(rules, text));
    }
  });

  it('refuses a keyword it cannot fold', () => {
    expect(() => new KeywordScanner([['clé']])).toThrow(/Keyword "clé" is not ASCII/);
  });
});
