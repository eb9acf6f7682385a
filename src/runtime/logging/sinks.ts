// Where log entries go: a human line per entry (stderr by default), and the session recording.

import type { LogLevel } from './levels.js';
import type { LogContext, LogEntry, LogSink } from './logger.js';

/**
 * `timestamp LEVEL [sessionId] message`, then the rest of the context as JSON when there is any.
 * The session id is left out when the entry has none.
 */
export function formatLogLine(entry: LogEntry): string {
  const { sessionId, ...rest } = entry.context;
  const session = typeof sessionId === 'string' && sessionId !== '' ? ` [${sessionId}]` : '';
  const extra = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : '';
  return `${entry.time} ${entry.level.toUpperCase().padEnd(5)}${session} ${oneLine(entry.message)}${extra}`;
}

/** Newlines in a message would break the one-line-per-entry shape. */
function oneLine(text: string): string {
  return text.replace(/\r?\n/g, '\\n');
}

/** Writes each entry as a human line; to stderr unless `write` is given. */
export function humanLineSink(options: { minLevel?: LogLevel; write?: (line: string) => void } = {}): LogSink {
  const write = options.write ?? ((line: string) => void process.stderr.write(line));
  return {
    ...(options.minLevel !== undefined ? { minLevel: options.minLevel } : {}),
    write: (entry) => write(`${formatLogLine(entry)}\n`),
  };
}

/** A log entry as the recorder stores it (the `log` line of a runtime session file, without its header fields). */
export interface LogRecord {
  type: 'log';
  level: LogLevel;
  message: string;
  context: LogContext;
}

/** Hands info and above (or from `minLevel`) to the recorder, whatever the terminal shows. */
export function recordSink(record: (entry: LogRecord) => void, minLevel: LogLevel = 'info'): LogSink {
  return {
    minLevel,
    write: (entry) => record({ type: 'log', level: entry.level, message: entry.message, context: entry.context }),
  };
}
