// Whether a --db value names a PostgreSQL store: checked without loading the driver, so that
// opening a SQLite store never pays for `pg` at start-up.

/**
 * @example isPostgresUrl('postgres://me@db/hindsight') // true; isPostgresUrl('/tmp/h.db') // false
 */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}
