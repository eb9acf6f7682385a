// Which HTTP status each error code answers with: one table, so the API, its OpenAPI document and
// docs/http.md agree, and a test fails when a new error code has no deliberate status.

/** Codes only the HTTP surface raises (the request never reached a tool). */
export const HTTP_ERROR_CODES = {
  UNKNOWN_TOOL: 404,
  NOT_FOUND: 404,
  MALFORMED_JSON: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  BODY_TOO_LARGE: 413,
  METHOD_NOT_ALLOWED: 405,
  UNAUTHORIZED: 401,
  HOST_NOT_ALLOWED: 403,
  CROSS_ORIGIN: 403,
} as const satisfies Record<string, number>;

/** Codes the tools, the store and the ingest pipeline raise (defineError), plus INTERNAL. */
export const TOOL_ERROR_STATUS: Readonly<Record<string, number>> = {
  // The caller can fix the arguments.
  INVALID_ARGUMENTS: 400,
  INVALID_PATTERN: 400,
  UNKNOWN_FORMAT: 400,
  UNKNOWN_LEDGER: 400,
  FORMAT_NOT_DETECTED: 400,
  NOT_A_SESSION_FILE: 400,
  PATH_ESCAPES_ROOT: 400,
  PATH_OUTSIDE_WORKSPACE: 400,
  WRONG_KIND: 400,
  BINARY_FILE: 400,
  UNKNOWN_PARSER: 400,
  INPUT_TOO_LARGE: 413,
  // Sync (src/sync): the remote or the machine id given is not usable as such.
  SYNC_NO_REMOTE: 400,
  SYNC_REMOTE_INVALID: 400,
  SYNC_LOCAL_INVALID: 400,
  SYNC_BAD_MACHINE_ID: 400,
  SYNC_FILE_INVALID: 500,
  // What the arguments name does not exist.
  SESSION_NOT_FOUND: 404,
  LEDGER_NOT_FOUND: 404,
  PATH_NOT_FOUND: 404,
  FILE_NOT_FOUND: 404,
  NO_PLANE_ROOT: 404,
  // The arguments name more than one thing: the error lists the candidates to choose from.
  AMBIGUOUS_SESSION: 409,
  AMBIGUOUS_ROOT: 409,
  // The state of the store or the sources forbids it now; it may succeed later.
  INGEST_BUSY: 409,
  SESSION_LIVE: 409,
  SOURCE_CHANGED: 409,
  // Understood, but never possible for this session (a Control Plane ledger, a sub-agent file).
  REWIND_REFUSED: 422,
  // A team token may not do this (docs/team.md): read-only, another machine's files, a write.
  READ_ONLY_TOKEN: 403,
  MACHINE_TOOL_REFUSED: 403,
  SCOPED_WRITE_REFUSED: 403,
  // No token has that id (hindsight token revoke).
  TOKEN_NOT_FOUND: 404,
  // The store itself cannot be used.
  STORE_OPEN_FAILED: 503,
  STORE_SCHEMA_TOO_NEW: 503,
  STORE_UNAVAILABLE: 503,
  SYNC_REMOTE_UNREACHABLE: 503,
  INTERNAL: 500,
  // A stored evidence block does not inflate to what its row records: the server's store is damaged there.
  EVIDENCE_DAMAGED: 500,
  // A source file grep read directly failed to read on the server (an I/O error); read_from "evidence" avoids it.
  SOURCE_UNREADABLE: 500,
  // Raised before a server listens (no token off loopback), so never an answer; 500 if it ever were.
  TOKEN_REQUIRED: 500,
};

/**
 * The HTTP status of an error envelope's code (500 for a code nobody mapped).
 *
 * @example statusForCode('SESSION_NOT_FOUND') // 404
 */
export function statusForCode(code: string): number {
  return (HTTP_ERROR_CODES as Record<string, number>)[code] ?? TOOL_ERROR_STATUS[code] ?? 500;
}
