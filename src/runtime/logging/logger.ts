// The runtime's leveled logger (seed §11). Every entry is redacted before any sink sees it (the
// message and every string in its context, with src/core/redact.ts), so an API key passed by
// mistake never reaches the terminal or the recording. child() adds context (session id, turn,
// step) that every later entry carries.
//
// Each sink has its own threshold: the terminal follows --log-level while the recording keeps
// info and above whatever the terminal shows (recordSink).

import { redactText, redactValue } from '../../core/redact.js';
import { DEFAULT_LOG_LEVEL, levelPasses, type LogLevel } from './levels.js';

export type LogContext = Record<string, unknown>;

export interface LogEntry {
  /** ISO time. */
  time: string;
  level: LogLevel;
  message: string;
  context: LogContext;
}

export interface LogSink {
  /** Entries below this level are not written; default: the logger's level. */
  minLevel?: LogLevel;
  write(entry: LogEntry): void;
}

export interface LoggerOptions {
  level?: LogLevel;
  sinks: readonly LogSink[];
  context?: LogContext;
  /** Milliseconds since the epoch; Date.now by default. */
  now?: () => number;
}

export class Logger {
  readonly level: LogLevel;
  private readonly sinks: readonly LogSink[];
  private readonly context: LogContext;
  private readonly now: () => number;

  constructor(options: LoggerOptions) {
    this.level = options.level ?? DEFAULT_LOG_LEVEL;
    this.sinks = options.sinks;
    this.context = { ...options.context };
    this.now = options.now ?? Date.now;
  }

  /** A logger writing to the same sinks at the same level, with `context` merged over this one's. */
  child(context: LogContext): Logger {
    return new Logger({ level: this.level, sinks: this.sinks, context: { ...this.context, ...context }, now: this.now });
  }

  /** Whether any sink would write an entry at `level` (to skip building costly messages). */
  isEnabled(level: LogLevel): boolean {
    return this.sinks.some((sink) => levelPasses(level, sink.minLevel ?? this.level));
  }

  trace(message: string, context?: LogContext): void {
    this.log('trace', message, context);
  }
  debug(message: string, context?: LogContext): void {
    this.log('debug', message, context);
  }
  info(message: string, context?: LogContext): void {
    this.log('info', message, context);
  }
  warn(message: string, context?: LogContext): void {
    this.log('warn', message, context);
  }
  error(message: string, context?: LogContext): void {
    this.log('error', message, context);
  }

  log(level: LogLevel, message: string, context?: LogContext): void {
    const targets = this.sinks.filter((sink) => levelPasses(level, sink.minLevel ?? this.level));
    if (targets.length === 0) return;
    const entry: LogEntry = {
      time: new Date(this.now()).toISOString(),
      level,
      message: redactText(message),
      context: redactValue(jsonSafe({ ...this.context, ...context })),
    };
    for (const sink of targets) {
      try {
        sink.write(entry);
      } catch {
        // A sink that fails (a closed stderr, a full disk) must not take the caller down with it,
        // and there is nowhere left to report it.
      }
    }
  }
}

/**
 * The context as plain JSON: Errors become {name, message}, bigints strings, functions and
 * undefined dropped, a reference back to an enclosing object "[circular]". Redaction and the
 * recording both walk plain JSON only.
 */
function jsonSafe(context: LogContext): LogContext {
  const ancestors: object[] = [];
  const text = JSON.stringify(context, function replace(this: unknown, _key: string, value: unknown) {
    if (typeof value === 'bigint') return value.toString();
    if (value instanceof Error) return { name: value.name, message: value.message };
    if (typeof value !== 'object' || value === null) return value;
    // `this` is the object holding `value`: drop ancestors that are not on its path.
    while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.pop();
    if (ancestors.includes(value)) return '[circular]';
    ancestors.push(value);
    return value;
  });
  return text === undefined ? {} : (JSON.parse(text) as LogContext);
}
