// Leaving parts of an event's payload out on request (prompts, tool arguments and results) while
// saying what was left out: every removed key is listed in `omitted` with its size in bytes, so
// the caller knows it exists and how big it is. The format folders' eventContent hooks use it.

import { asObj, type Obj } from './tool-summary.js';

const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0) || (asObj(v) !== undefined && Object.keys(v as Obj).length === 0);

function byteSize(v: unknown): number {
  if (v === undefined) return 0;
  return Buffer.byteLength(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
}

/** Removes keys from (copied) objects and remembers what it removed. */
export class Omitter {
  readonly omitted: Record<string, number> = {};

  /** Delete `key` from `target` (a copy owned by the caller), listing it as `label` unless it was empty. */
  take(target: Obj | undefined, key: string, label: string): void {
    if (!target || !(key in target)) return;
    const value = target[key];
    delete target[key];
    if (!isEmpty(value)) this.omitted[label] = byteSize(value);
  }

  /** `content` with the `omitted` list when anything was removed. */
  finish(content: Obj): Obj {
    return Object.keys(this.omitted).length ? { ...content, omitted: this.omitted } : content;
  }
}
