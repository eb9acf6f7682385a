// Filler text for synthetic transcripts: English prose, source code and numbered file listings,
// either pure ASCII or sprinkled with accents, CJK and emoji, so callers control the non-ASCII share.

import type { Rng } from './prng.js';

const WORDS = (
  'the a of to and in is for that with on as it by this be are from or at an was not which but we ' +
  'function module session request response handler parser buffer stream config cache index token ' +
  'value error result record entry field schema migration query table column cursor worker queue ' +
  'build test deploy release branch commit merge review change patch file path directory folder ' +
  'import export return await async promise callback event listener timeout retry limit budget ' +
  'user agent model tool prompt context summary output input usage report check update fix add ' +
  'remove rename refactor split merge parse render format validate compute load save read write ' +
  'should could would might must needs seems looks appears fails passes works breaks returns throws ' +
  'because when while before after until unless since although however therefore instead also only ' +
  'first next then finally quickly carefully again already still just never always often sometimes ' +
  'small large empty missing stale broken flaky slow fast correct wrong invalid unknown optional'
).split(' ');

const IDENTS = (
  'parseLine loadConfig sessionStore readChunk flushQueue tokenCount applyPatch resolvePath ' +
  'buildIndex mergeRanges formatReport validateInput computeTotal fetchPage retryRequest ' +
  'openCursor closeWriter splitLines hashEntry normalizeTs groupByKey sortEvents emitRow'
).split(' ');

const TYPES = ['string', 'number', 'boolean', 'Buffer', 'Entry[]', 'Map<string, number>', 'Promise<void>', 'Row | null'];

// Original phrases in several scripts; emoji are astral (surrogate pairs) on purpose.
const PHRASES = [
  'café crème', 'naïve façade', 'Überprüfung der Eingabe', 'größer als erwartet', 'niño pequeño',
  'ação concluída', 'résumé du rapport', 'Zürich → Genève', 'smörgåsbord', 'Łódź', 'Ελληνικά δεδομένα',
  'Привет, мир', 'Готово', 'ファイルを読み込みました', '空の配列を返す', '日本語のテキスト', '中文字符测试',
  '数据已保存', '한국어 문장입니다', '✅ done', '🚀 deployed', '🐛 fixed', '⚠️ warning', '📦 package',
  '— see above', '“quoted”', '½ of the budget', '±3 ms', '≥ 0', '→ next step', '…',
];

const NON_ASCII_CODE = [
  '// TODO: gérer le cas où la liste est vide',
  '  const label = "Prix à payer €";',
  '  // 注意: 空の配列を返す',
  '  console.log("✅ migración completa");',
  '  # Übergabe an den Worker — nicht blockieren',
  '  throw new Error("无效的输入");',
];

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Text source backed by fixed pools built once from the seed; callers take slices, which is cheap. */
export class TextGen {
  private readonly proseAscii: string;
  private readonly proseMixed: string;
  private readonly codeAscii: string;
  private readonly codeMixed: string;
  private readonly b64: string;

  constructor(private readonly rng: Rng, poolChars = 384 * 1024) {
    this.proseAscii = this.buildProse(poolChars, false);
    this.proseMixed = this.buildProse(poolChars, true);
    this.codeAscii = this.buildCode(poolChars, false);
    this.codeMixed = this.buildCode(poolChars, true);
    let b = '';
    for (let i = 0; i < 65536; i++) b += B64[rng.u32() & 63];
    this.b64 = b;
  }

  words(k: number): string {
    const out: string[] = [];
    for (let i = 0; i < k; i++) out.push(this.rng.pick(WORDS));
    return out.join(' ');
  }

  /** One fresh sentence; with nonAscii it carries at least one non-ASCII phrase. */
  sentence(nonAscii = false): string {
    let s = this.words(this.rng.int(5, 16));
    if (this.rng.chance(0.3)) s += ` \`${this.rng.pick(IDENTS)}\``;
    if (nonAscii) s += ` ${this.rng.pick(PHRASES)}`;
    return s.charAt(0).toUpperCase() + s.slice(1) + '.';
  }

  /** A short capitalised label: task descriptions, todo items, session titles. */
  title(): string {
    const s = this.words(this.rng.int(3, 7));
    return s.charAt(0).toUpperCase() + s.slice(1);
  }

  phrase(): string {
    return this.rng.pick(PHRASES);
  }

  ident(): string {
    return this.rng.pick(IDENTS);
  }

  /** ~n characters of paragraphs. Short non-ASCII requests get a phrase appended so the flag always holds. */
  prose(n: number, nonAscii = false): string {
    const s = this.slice(nonAscii ? this.proseMixed : this.proseAscii, n, '. ');
    return nonAscii && n < 1200 ? `${s} ${this.rng.pick(PHRASES)}` : s;
  }

  /** ~n characters of whole source lines. */
  code(n: number, nonAscii = false): string {
    const s = this.slice(nonAscii ? this.codeMixed : this.codeAscii, n, '\n');
    return nonAscii && n < 4000 ? `${s}\n${this.rng.pick(NON_ASCII_CODE)}` : s;
  }

  /** Claude Code's Read output format: right-aligned line number, an arrow (non-ASCII), the line. */
  numbered(content: string, startLine: number): string {
    const lines = content.split('\n');
    for (let i = 0; i < lines.length; i++) lines[i] = `${String(startLine + i).padStart(6)}→${lines[i]}`;
    return lines.join('\n');
  }

  /** Opaque base64 blob standing in for thinking signatures. */
  signature(n: number): string {
    return this.slice(this.b64, n, '');
  }

  private slice(pool: string, n: number, boundary: string): string {
    if (n >= pool.length) return pool.repeat(Math.ceil(n / pool.length)).slice(0, n);
    let start = this.rng.int(0, pool.length - n);
    if (boundary) {
      // Start on a sentence/line boundary so slices read naturally; fall back to the raw offset.
      const b = pool.indexOf(boundary, start);
      if (b >= 0 && b + boundary.length + n <= pool.length && b - start < 600) start = b + boundary.length;
    }
    let end = start + n;
    // Never cut an astral character in half: a lone surrogate would not round-trip through UTF-8.
    if (isHigh(pool.charCodeAt(end - 1))) end--;
    if (isLow(pool.charCodeAt(start))) start++;
    return pool.slice(start, end);
  }

  private buildProse(chars: number, mixed: boolean): string {
    const parts: string[] = [];
    let len = 0;
    while (len < chars) {
      const sentences = this.rng.int(2, 6);
      let p = '';
      for (let i = 0; i < sentences; i++) p += (i ? ' ' : '') + this.sentence(mixed && this.rng.chance(0.35));
      parts.push(p);
      len += p.length + 2;
    }
    return parts.join('\n\n');
  }

  private buildCode(chars: number, mixed: boolean): string {
    const r = this.rng;
    const lines: string[] = [];
    let len = 0;
    while (len < chars) {
      const f = r.pick(IDENTS);
      const block = [
        `export function ${f}(${r.pick(IDENTS)}: ${r.pick(TYPES)}): ${r.pick(TYPES)} {`,
        `  const ${r.pick(IDENTS)} = await ${r.pick(IDENTS)}.${r.pick(IDENTS)}(${r.int(0, 4096)});`,
        `  if (!${r.pick(IDENTS)}) throw new Error('${this.words(r.int(3, 7))}');`,
        `  // ${this.words(r.int(4, 12))}`,
        `  for (const item of ${r.pick(IDENTS)}) total += item.${r.pick(IDENTS)} ?? 0;`,
        `  return ${r.pick(IDENTS)};`,
        '}',
        '',
      ];
      if (mixed && r.chance(0.5)) block.splice(3, 0, r.pick(NON_ASCII_CODE));
      for (const l of block) {
        if (r.chance(0.15) && l !== '' && l !== '}') continue;
        lines.push(l);
        len += l.length + 1;
      }
    }
    return lines.join('\n');
  }
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
