// The viewer's static files are served by name and nothing outside their folder ever is.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { webAsset, webAssetsDir } from './assets.js';

describe('webAsset', () => {
  it('serves index.html for / and /index.html with an HTML content type', () => {
    const root = webAsset('/');
    expect(root?.contentType).toBe('text/html; charset=utf-8');
    expect(root?.body.equals(readFileSync(join(webAssetsDir(), 'index.html')))).toBe(true);
    expect(webAsset('/index.html')?.body.equals(root!.body)).toBe(true);
    expect(webAsset('/?token=abc')?.body.equals(root!.body)).toBe(true);
  });

  it('serves the script and the stylesheet with their types', () => {
    expect(webAsset('/app.js')?.contentType).toBe('text/javascript; charset=utf-8');
    expect(webAsset('/style.css')?.contentType).toBe('text/css; charset=utf-8');
  });

  it('answers null for files that do not exist', () => {
    expect(webAsset('/nope.js')).toBeNull();
    expect(webAsset('/api/tools/list_sessions')).toBeNull();
  });

  it('refuses traversal, encoded traversal, absolute paths and hidden files', () => {
    for (const p of [
      '/../package.json',
      '/../../package.json',
      '/..%2fpackage.json',
      '/%2e%2e/package.json',
      '/%2e%2e%2fpackage.json',
      '/..\\package.json',
      '\\..\\package.json',
      '//etc/passwd',
      '/etc/passwd',
      'etc/passwd',
      '/./index.html',
      '/.hidden.js',
      '/assets.ts',
      '/index.html\0.js',
      '/%00',
    ]) {
      expect(webAsset(p), p).toBeNull();
    }
  });

  it('finds the folder under the package root', () => {
    expect(webAssetsDir().endsWith(join('src', 'surfaces', 'web', 'public'))).toBe(true);
  });
});
