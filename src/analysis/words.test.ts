import { describe, expect, it } from 'vitest';
import { toolPhrases } from './tool-words.js';
import { cleanUserText } from './user-text.js';
import { clipWords, count, humanDuration, listing, snakeCase } from './words.js';

describe('overview wording helpers', () => {
  it('says durations as people do, with the two largest units', () => {
    expect([45, 1, 720, 60, 7500, 3600, 93_600, 0].map(humanDuration)).toEqual([
      '45 seconds',
      '1 second',
      '12 minutes',
      '1 minute',
      '2 hours 5 minutes',
      '1 hour',
      '1 day 2 hours',
      '0 seconds',
    ]);
    expect(humanDuration(null)).toBeNull();
  });

  it('writes counts under ten in words and lists like a sentence', () => {
    expect([0, 1, 9, 10, 14].map(count)).toEqual(['zero', 'one', 'nine', '10', '14']);
    expect(listing(['a'])).toBe('a');
    expect(listing(['a', 'b', 'c'])).toBe('a, b and c');
    expect(snakeCase('WO_FAILED')).toBe('wo_failed');
    expect(snakeCase('tool:error')).toBe('tool_error');
  });

  it('clips at a word boundary (never inside a character)', () => {
    expect(clipWords('please read the whole file now', 16)).toBe('please read the…');
    expect(clipWords('short', 16)).toBe('short');
    expect(clipWords('😀'.repeat(10), 4)).toBe('😀😀😀😀…');
  });

  it('names tools by what they do, in one order for every format', () => {
    expect(toolPhrases({ Read: 14, Edit: 6, Bash: 9, Task: 2, Grep: 3, Glob: 2, WebFetch: 2 })).toEqual([
      'read 14 files',
      'edited six',
      'ran nine shell commands',
      'delegated two tasks',
      'searched five times',
      'fetched two web pages',
    ]);
    expect(toolPhrases({ bash: 1, read_file: 2, write_file: 1, delegate: 1 })).toEqual([
      'read two files',
      'wrote one file',
      'ran one shell command',
      'delegated one task',
    ]);
    expect(toolPhrases({ list_packages: 3, session_overview: 1, a: 1, b: 1, c: 1, d: 2 })).toEqual([
      'called list_packages three times',
      'd twice',
      'a once',
      'b once',
      'two other tools twice',
    ]);
  });

  it("keeps only the user's words", () => {
    expect(cleanUserText('<command-name>/init</command-name>\n<command-message>init</command-message>\n<command-args></command-args>')).toBe('/init');
    expect(cleanUserText('fix the build<system-reminder>be brief</system-reminder>')).toBe('fix the build');
    expect(cleanUserText('<local-command-stdout>ok</local-command-stdout>')).toBe('');
    expect(cleanUserText('is a < b and <T> generic?')).toBe('is a < b and <T> generic?');
  });
});
