// One way to print a count with its noun, so no CLI line says "1 files" or "1 turns".

/** @example plural(1, 'file') // '1 file'   plural(3, 'bad line') // '3 bad lines' */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
