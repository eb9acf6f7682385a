import { describe, expect, it } from 'vitest';
import { LOG_LEVELS, resolveLogLevel } from './levels.js';
import { Logger, type LogEntry, type LogSink } from './logger.js';
import { formatLogLine, humanLineSink, recordSink, type LogRecord } from './sinks.js';

const T0 = Date.UTC(2026, 2, 4, 5, 6, 7, 890);
const collect = (minLevel?: LogSink['minLevel']) => {
  const entries: LogEntry[] = [];
  const sink: LogSink = { ...(minLevel ? { minLevel } : {}), write: (e) => entries.push(e) };
  return { entries, sink };
};

describe('Logger levels', () => {
  it('writes entries at or above its level, in order trace < debug < info < warn < error', () => {
    expect(LOG_LEVELS).toEqual(['trace', 'debug', 'info', 'warn', 'error']);
    const { entries, sink } = collect();
    const log = new Logger({ level: 'warn', sinks: [sink], now: () => T0 });
    log.trace('t');
    log.debug('d');
    log.info('i');
    log.warn('w');
    log.error('e');
    expect(entries.map((e) => `${e.level}:${e.message}`)).toEqual(['warn:w', 'error:e']);
    expect(entries[0]!.time).toBe('2026-03-04T05:06:07.890Z');
    expect(log.isEnabled('info')).toBe(false);
    expect(log.isEnabled('error')).toBe(true);
  });

  it('trace lets everything through; the default is info', () => {
    const all = collect();
    const traceLog = new Logger({ level: 'trace', sinks: [all.sink] });
    for (const level of LOG_LEVELS) traceLog.log(level, level);
    expect(all.entries).toHaveLength(5);
    const some = collect();
    new Logger({ sinks: [some.sink] }).debug('hidden');
    expect(some.entries).toEqual([]);
  });

  it('gives each sink its own threshold: the recording keeps info+ while the terminal shows errors only', () => {
    const lines: string[] = [];
    const records: LogRecord[] = [];
    const log = new Logger({ level: 'error', sinks: [humanLineSink({ write: (l) => lines.push(l) }), recordSink((r) => records.push(r))], now: () => T0 });
    log.debug('not kept');
    log.info('kept', { sessionId: 's-1' });
    log.error('shown');
    expect(records.map((r) => r.message)).toEqual(['kept', 'shown']);
    expect(records[0]).toEqual({ type: 'log', level: 'info', message: 'kept', context: { sessionId: 's-1' } });
    expect(lines).toEqual(['2026-03-04T05:06:07.890Z ERROR shown\n']);
  });
});

describe('Logger child context', () => {
  it('merges context: child over parent, call over child; the parent is unchanged', () => {
    const { entries, sink } = collect();
    const root = new Logger({ level: 'info', sinks: [sink], context: { app: 'runtime' } });
    const session = root.child({ sessionId: 's-1', turn: 1 });
    const step = session.child({ turn: 2, step: 3 });
    step.info('step', { step: 4, tool: 'bash' });
    root.info('root');
    expect(entries[0]!.context).toEqual({ app: 'runtime', sessionId: 's-1', turn: 2, step: 4, tool: 'bash' });
    expect(entries[1]!.context).toEqual({ app: 'runtime' });
    expect(step.level).toBe('info');
  });

  it('makes context plain JSON: errors, bigints, cycles', () => {
    const { entries, sink } = collect();
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    const shared = { x: 1 };
    new Logger({ sinks: [sink] }).warn('odd context', { err: new TypeError('bad input'), big: 10n, loop, a: shared, b: shared, f: () => 1 });
    expect(entries[0]!.context).toEqual({
      err: { name: 'TypeError', message: 'bad input' },
      big: '10',
      loop: { name: 'loop', self: '[circular]' },
      a: { x: 1 },
      b: { x: 1 },
    });
  });
});

describe('Logger redaction', () => {
  const anthropicKey = 'sk-ant-api03-' + 'A1b2C3d4E5f6G7h8I9j0'.repeat(4);
  const openaiKey = 'sk-proj-' + 'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2'.repeat(2);

  it('redacts API keys in the message and in context values at any depth', () => {
    const { entries, sink } = collect();
    const lines: string[] = [];
    const log = new Logger({ sinks: [sink, humanLineSink({ write: (l) => lines.push(l) })] }).child({ sessionId: 's-9', auth: { header: `Bearer ${openaiKey}` } });
    log.error(`provider refused key ${anthropicKey}`, { apiKey: openaiKey, retries: [openaiKey], note: 'plain text stays' });
    const entry = entries[0]!;
    const all = JSON.stringify(entry) + lines.join('');
    expect(all).not.toContain(anthropicKey);
    expect(all).not.toContain(openaiKey);
    expect(all).not.toContain('A1b2C3d4E5f6');
    expect(entry.message).toBe('provider refused key [REDACTED:api_key]');
    expect(entry.context.note).toBe('plain text stays');
    expect(entry.context.retries).toEqual(['[REDACTED:api_key]']);
    expect(entry.context.sessionId).toBe('s-9');
    expect(lines[0]).toContain(' [s-9] provider refused key [REDACTED:api_key] ');
  });
});

describe('sinks', () => {
  it('formats a human line with the session id and the rest of the context', () => {
    const entry: LogEntry = { time: '2026-03-04T05:06:07.890Z', level: 'warn', message: 'budget near\nlimit', context: { sessionId: 'abc', tokens: 9 } };
    expect(formatLogLine(entry)).toBe('2026-03-04T05:06:07.890Z WARN  [abc] budget near\\nlimit {"tokens":9}');
    expect(formatLogLine({ ...entry, context: {} })).toBe('2026-03-04T05:06:07.890Z WARN  budget near\\nlimit');
  });

  it('a failing sink does not stop the others or the caller', () => {
    const { entries, sink } = collect();
    const broken: LogSink = {
      write: () => {
        throw new Error('EPIPE');
      },
    };
    const log = new Logger({ sinks: [broken, sink] });
    expect(() => log.info('still here')).not.toThrow();
    expect(entries.map((e) => e.message)).toEqual(['still here']);
  });
});

describe('resolveLogLevel', () => {
  it('takes --log-level, then HINDSIGHT_LOG_LEVEL, then info', () => {
    expect(resolveLogLevel('debug', { HINDSIGHT_LOG_LEVEL: 'error' })).toBe('debug');
    expect(resolveLogLevel(undefined, { HINDSIGHT_LOG_LEVEL: ' WARN ' })).toBe('warn');
    expect(resolveLogLevel('', { HINDSIGHT_LOG_LEVEL: '' })).toBe('info');
    expect(resolveLogLevel(undefined, {})).toBe('info');
  });

  it('refuses a bad level, naming where it came from and the valid levels', () => {
    expect(() => resolveLogLevel('verbose', {})).toThrow('--log-level: "verbose" is not a log level; the valid levels are trace, debug, info, warn, error');
    expect(() => resolveLogLevel(undefined, { HINDSIGHT_LOG_LEVEL: 'loud' })).toThrow('HINDSIGHT_LOG_LEVEL: "loud" is not a log level');
  });
});
