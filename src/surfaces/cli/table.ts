// Aligned text tables for the CLI views. The last column takes what is left of the terminal
// width (120 when not a terminal) and is cut with an ellipsis; colour is applied after padding
// so escapes never break the alignment.

import type { Paint } from './colour.js';

export interface Column {
  head: string;
  /** Style of this column's cells (e.g. dim, or per value). */
  style?: (value: string) => Parameters<Paint>[0] | undefined;
}

export function cut(text: string | null | undefined, n: number): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, Math.max(0, n - 1))}…` : flat;
}

export function table(columns: Column[], rows: string[][], paint: Paint, width = process.stdout.columns || 120): string {
  const widths = columns.map((c, i) => Math.max(c.head.length, ...rows.map((r) => (r[i] ?? '').length)));
  const fixed = widths.slice(0, -1).reduce((n, w) => n + w + 2, 0);
  const lastWidth = Math.max(20, width - fixed);
  const line = (cells: string[], header: boolean) =>
    cells
      .map((cell, i) => {
        const last = i === cells.length - 1;
        const text = last ? cut(cell, lastWidth) : cell.padEnd(widths[i]!);
        const style = header ? 'bold' : columns[i]?.style?.(cell);
        return style ? paint(style, text) : text;
      })
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.head), true), ...rows.map((r) => line(r, false))].join('\n');
}
