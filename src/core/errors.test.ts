// An error crossing a thread (structuredClone, as postMessage copies it) comes back as it was
// thrown: a HindsightError with its code and details, anything else an Error with its message.

import { describe, expect, it } from 'vitest';
import { errorFromWire, errorToWire, EvidenceDamaged, HindsightError } from './errors.js';

const crossed = (err: unknown) => errorFromWire(structuredClone(errorToWire(err)));

describe('errorToWire / errorFromWire', () => {
  it('keeps a HindsightError whole: code, message and details', () => {
    const thrown = EvidenceDamaged('projects/p/s.jsonl', 420, 'Decompression failed');
    const back = crossed(thrown);
    expect(back).toBeInstanceOf(HindsightError);
    expect(back).toMatchObject({ code: 'EVIDENCE_DAMAGED', message: thrown.message, details: { file: 'projects/p/s.jsonl', line: 420, reason: 'Decompression failed' } });
    expect(back.stack).toBe(thrown.stack);
  });

  it('keeps anything else an Error with its message, without a code', () => {
    const back = crossed(new TypeError('boom'));
    expect(back).not.toBeInstanceOf(HindsightError);
    expect(back.message).toBe('boom');
    expect(crossed('a string').message).toBe('a string');
  });
});
