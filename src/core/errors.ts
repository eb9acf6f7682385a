// Typed errors, each defined once with a stable code, so every surface can map them the same way.

export interface HindsightErrorShape {
  code: string;
  message: string;
}

/** What an error is about, as data (a file, a line), for a caller that acts on it rather than shows the sentence. */
export type ErrorDetails = Readonly<Record<string, string | number>>;

/** Base class of every error Hindsight raises on purpose; `code` is stable and machine-readable. */
export class HindsightError extends Error {
  readonly code: string;
  readonly details: ErrorDetails | undefined;
  constructor(code: string, message: string, details?: ErrorDetails) {
    super(message);
    this.code = code;
    this.details = details;
    this.name = 'HindsightError';
  }
}

export type ErrorFactory<A extends unknown[]> = ((...args: A) => HindsightError) & { code: string };

/**
 * Define an error once: its code, how to say it, and (optionally) what it is about as data.
 *
 * @example
 * const SessionNotFound = defineError('SESSION_NOT_FOUND', (id: string) => `No session ${id}.`, (id) => ({ id }));
 * throw SessionNotFound('SES-1');
 */
export function defineError<A extends unknown[]>(code: string, describe: (...args: A) => string, detailsOf?: (...args: A) => ErrorDetails): ErrorFactory<A> {
  const factory = ((...args: A) => new HindsightError(code, describe(...args), detailsOf?.(...args))) as ErrorFactory<A>;
  factory.code = code;
  return factory;
}

export const SessionNotFound = defineError(
  'SESSION_NOT_FOUND',
  (id: string) => `No session with id "${id}" is in the store. Run list_sessions to see the ids, or ingest its logs first.`,
);
export const LedgerNotFound = defineError(
  'LEDGER_NOT_FOUND',
  (ledger: string, sessionId: string, valid: string[]) =>
    `Session "${sessionId}" has no ledger "${ledger}". Valid ledgers: ${valid.join(', ') || '(none)'}.`,
);
export const InvalidArguments = defineError('INVALID_ARGUMENTS', (detail: string) => `Invalid arguments: ${detail}`);
export const UnknownFormat = defineError(
  'UNKNOWN_FORMAT',
  (format: string, valid: string[]) => `Unknown format "${format}". Valid formats: ${valid.join(', ')}.`,
);
export const FormatNotDetected = defineError(
  'FORMAT_NOT_DETECTED',
  (path: string, layouts: readonly { format: string; layout: string }[]) =>
    `Could not tell which agent wrote ${path}: expected ${layouts.map((l) => l.layout).join(', ')}, or a session file of one of them. Pass --format (${layouts.map((l) => l.format).join(', ')}) to say which.`,
);
export const NotASessionFile = defineError(
  'NOT_A_SESSION_FILE',
  (path: string, format: string) =>
    `${path} is not a session file of ${format}: pass a session's .jsonl file, or the folder that holds its sessions (a Control Plane ledger must be ingested through its plane root).`,
);
export const PathNotFound = defineError('PATH_NOT_FOUND', (path: string) => `No such file or folder: ${path}.`);
export const IngestBusy = defineError(
  'INGEST_BUSY',
  (db: string, pid: number) =>
    `Another hindsight ingest (pid ${pid}) is writing to ${db}. Wait for it to finish, or pass --wait to queue behind it.`,
);
export const StoreOpenFailed = defineError(
  'STORE_OPEN_FAILED',
  (location: string, reason: string) =>
    `Cannot open the store at ${location} (${reason}). Pass a writable file path with --db or HINDSIGHT_DB.`,
);
export const StoreSchemaTooNew = defineError(
  'STORE_SCHEMA_TOO_NEW',
  (found: number, known: number) =>
    `The store was written by a newer Hindsight (schema ${found}; this one knows up to ${known}). Upgrade Hindsight or use another --db.`,
);

export const EvidenceDamaged = defineError(
  'EVIDENCE_DAMAGED',
  (file: string, firstLine: number, reason: string) =>
    `The stored evidence of ${file} from line ${firstLine} cannot be read (${reason}): that part of the store is damaged. Restore the store from a copy, or ingest the source into a fresh store (--db).`,
  (file, firstLine, reason) => ({ file, line: firstLine, reason }),
);
/** A source file that looked unchanged since ingest failed to read (an I/O error, a network share gone). */
export const SourceUnreadable = defineError(
  'SOURCE_UNREADABLE',
  (file: string, reason: string) =>
    `The source file ${file} could not be read (${reason}). Pass read_from: "evidence" to search what was ingested from it.`,
  (file, reason) => ({ file, reason }),
);

/**
 * An error as a worker thread posts it: postMessage keeps no class, so a HindsightError would
 * arrive as a bare object and its code and details would be lost. `code` and `details` are there
 * for a HindsightError only; `stack` is the thread's own, for the log.
 */
export interface WireError {
  message: string;
  code?: string;
  details?: ErrorDetails;
  stack?: string;
}

/**
 * Anything thrown on a worker thread, as it crosses to the main thread (errorFromWire turns it back).
 *
 * @example port.postMessage({ kind: 'failed', error: errorToWire(err) });
 */
export function errorToWire(err: unknown): WireError {
  const e = err instanceof Error ? err : new Error(String(err));
  return {
    message: e.message,
    ...(e.stack !== undefined && { stack: e.stack }),
    ...(e instanceof HindsightError && { code: e.code, ...(e.details !== undefined && { details: e.details }) }),
  };
}

/**
 * A posted error as it was thrown: a HindsightError (code, message, details) or an Error (message, the thread's stack).
 *
 * @example worker.on('message', (msg) => msg.kind === 'failed' && reject(errorFromWire(msg.error)));
 */
export function errorFromWire(wire: WireError): Error {
  const err = wire.code !== undefined ? new HindsightError(wire.code, wire.message, wire.details) : new Error(wire.message);
  if (wire.stack !== undefined) err.stack = wire.stack;
  return err;
}

/** Turn anything thrown into the error shape the envelopes use. */
export function toErrorShape(err: unknown): HindsightErrorShape {
  if (err instanceof HindsightError) return { code: err.code, message: err.message };
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'INTERNAL', message: `Internal error: ${message}` };
}
