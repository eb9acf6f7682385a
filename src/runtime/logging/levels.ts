// Log levels, most verbose first, and where the runtime's level comes from:
// --log-level, else $HINDSIGHT_LOG_LEVEL, else info.

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const DEFAULT_LOG_LEVEL: LogLevel = 'info';
export const LOG_LEVEL_ENV = 'HINDSIGHT_LOG_LEVEL';

const RANK: Readonly<Record<LogLevel, number>> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4 };

export function isLogLevel(value: string): value is LogLevel {
  return Object.hasOwn(RANK, value);
}

/** Whether an entry at `level` passes a threshold of `threshold`. */
export function levelPasses(level: LogLevel, threshold: LogLevel): boolean {
  return RANK[level] >= RANK[threshold];
}

/**
 * The level to run at. Case and surrounding blanks are ignored; an empty value counts as not
 * given. A value that is not a level throws, naming where it came from and the valid levels.
 */
export function resolveLogLevel(flag: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): LogLevel {
  for (const [value, from] of [
    [flag, '--log-level'],
    [env[LOG_LEVEL_ENV], LOG_LEVEL_ENV],
  ] as const) {
    const given = value?.trim().toLowerCase();
    if (!given) continue;
    if (!isLogLevel(given)) throw new Error(`${from}: "${value}" is not a log level; the valid levels are ${LOG_LEVELS.join(', ')}`);
    return given;
  }
  return DEFAULT_LOG_LEVEL;
}
