// Whether a --db value names a PostgreSQL store: checked without loading the driver, so that
// opening a SQLite store never pays for `pg` at start-up.

/**
 * @example isPostgresUrl('postgres://me@db/hindsight') // true; isPostgresUrl('/tmp/h.db') // false
 */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/**
 * A schema name Hindsight will use: lower-case letters, digits and _, at most 63 characters, not
 * PostgreSQL's own (`pg_*` is reserved, information_schema is the catalog). Keywords such as
 * `user` are fine: every statement quotes the name.
 *
 * @example isSchemaName('team_a') // true; isSchemaName('pg_temp') // false; isSchemaName('Bad-Name') // false
 */
export function isSchemaName(schema: string): boolean {
  return /^[a-z_][a-z0-9_]{0,62}$/.test(schema) && !schema.startsWith('pg_') && schema !== 'information_schema';
}

/**
 * A URL as it may be shown: without its password, whether in the user part (passwords may hold
 * `:` or `/`) or in a libpq `password` / `sslpassword` parameter, even when the URL cannot be parsed.
 *
 * @example withoutPassword('postgres://me:pa/ss@db/h?password=x') // 'postgres://me@db/h'
 */
export function withoutPassword(url: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0] ?? '';
  let rest = url.slice(scheme.length);
  const at = rest.lastIndexOf('@', rest.search(/[?#]/) === -1 ? rest.length : rest.search(/[?#]/));
  if (at !== -1) {
    const user = rest.slice(0, at).split(':')[0]!;
    rest = `${user}@${rest.slice(at + 1)}`;
  }
  return `${scheme}${rest}`.replace(/([?&])(ssl)?password=[^&#]*&?/gi, '$1').replace(/[?&]$/, '');
}
