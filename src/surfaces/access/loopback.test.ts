// Loopback detection and the Host allow-list both servers share (formerly two copies, one per server).

import { describe, expect, it } from 'vitest';
import { hostCheckFor, isLoopbackHost, loopbackHostCheck } from './loopback.js';

describe('isLoopbackHost', () => {
  it('accepts loopback names and addresses and nothing else', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', 'app.localhost', '::1', '[::1]', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1']) {
      expect(isLoopbackHost(h), h).toBe(true);
    }
    for (const h of ['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'example.com', 'localhost.evil.com', '128.0.0.1', '::ffff:10.0.0.1']) {
      expect(isLoopbackHost(h), h).toBe(false);
    }
  });
});

describe('Host allow-list', () => {
  it('on a loopback server, answers only loopback names, on its port when known', () => {
    const check = hostCheckFor('127.0.0.1', () => 7437);
    for (const h of ['127.0.0.1:7437', 'localhost:7437', '[::1]:7437', 'LOCALHOST', '127.0.0.1']) expect(check(h), h).toBe(true);
    for (const h of ['attacker.example:7437', 'localhost:80', '127.0.0.1.nip.io:7437', '10.0.0.2:7437', '']) expect(check(h), h).toBe(false);
  });

  it('ignores the port while it is unknown, and accepts the bound loopback address', () => {
    expect(loopbackHostCheck(() => undefined)('localhost:80')).toBe(true);
    const bound = loopbackHostCheck(() => 9000, '127.0.0.2');
    expect(bound('127.0.0.2:9000')).toBe(true);
    expect(bound('127.0.0.3:9000')).toBe(false);
    expect(loopbackHostCheck(() => 9000, '::1')('[::1]:9000')).toBe(true);
  });

  it('leaves Host alone on a server bound to another address (the token guards it)', () => {
    expect(hostCheckFor('0.0.0.0', () => 7437)('hindsight.internal:7437')).toBe(true);
  });
});
