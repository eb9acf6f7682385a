// The shared pieces of the long-running commands: --port values and the listen-failure sentences.

import { describe, expect, it } from 'vitest';
import { listenFailure, parsePort } from './server-process.js';

describe('parsePort', () => {
  it('takes 0–65535, the fallback when absent, and refuses everything else', () => {
    expect(parsePort(undefined, 7718)).toBe(7718);
    expect(parsePort('0', 7718)).toBe(0);
    expect(parsePort('65535', 7718)).toBe(65535);
    for (const bad of ['', ' 80', '80a', '-1', '1.5', '65536', '0x50', '999999999999999999999', '８０']) expect(parsePort(bad, 7718), bad).toBeNull();
  });
});

describe('listenFailure', () => {
  it('says what to do for a busy port, a privileged port and a foreign address; other errors are not its business', () => {
    const err = (code: string) => Object.assign(new Error(code), { code });
    expect(listenFailure(err('EADDRINUSE'), '127.0.0.1', 7718)).toMatch(/port 7718 on 127\.0\.0\.1 is already in use: pass another --port/);
    expect(listenFailure(err('EACCES'), '127.0.0.1', 80)).toMatch(/no permission to listen on port 80/);
    expect(listenFailure(err('EADDRNOTAVAIL'), '10.9.9.9', 7718)).toMatch(/cannot listen on 10\.9\.9\.9: no such address/);
    expect(listenFailure(new Error('boom'), '127.0.0.1', 7718)).toBeNull();
  });
});
