// The one seam between the store's algorithms and an engine: statements run through `Sql`, written
// once in the SQL both engines understand, with `$1`… placeholders (each engine binds them its own
// way) and `Dialect` fragments where the two really differ (array and row-list parameters, a few
// functions). SQLite's methods do their work synchronously and return settled promises, so the
// same code serves PostgreSQL's round trips without an extra layer on SQLite's hot paths.

export interface Sql {
  readonly dialect: Dialect;
  /** Rows as objects keyed by column name. */
  all<R extends object = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R[]>;
  /** Rows as arrays of column values, in select-list order: cheaper than objects for wide, many-row reads. */
  arrays(text: string, params?: readonly unknown[]): Promise<unknown[][]>;
  /** A statement that returns no rows; resolves to how many rows it changed. */
  run(text: string, params?: readonly unknown[]): Promise<number>;
}

/** The first row of a query, if any. */
export async function first<R extends object>(sql: Sql, text: string, params?: readonly unknown[]): Promise<R | undefined> {
  return (await sql.all<R>(text, params))[0];
}

// Two processes creating the table at once can collide on PostgreSQL's catalog even with IF NOT EXISTS.
const ALREADY_THERE = new Set(['42P07', '23505']);

/** Whether the table exists (a read of the engine's catalog). */
export async function tableExists(sql: Sql, table: string): Promise<boolean> {
  const row = await first<{ ok: unknown }>(sql, sql.dialect.tableExists, [table]);
  return row?.ok === true || row?.ok === 1;
}

/** `CREATE TABLE IF NOT EXISTS …`, where a concurrent creation by another process counts as done. */
export async function createTable(sql: Sql, ddl: string): Promise<void> {
  try {
    await sql.run(ddl);
  } catch (err) {
    if (!ALREADY_THERE.has((err as { code?: string }).code ?? '')) throw err;
  }
}

/**
 * A list of rows passed as one parameter (a JSON array of arrays on the wire): how a statement takes
 * a few thousand tuples at once on both engines. Read it in SQL with `Dialect.rows`.
 */
export class RowList {
  constructor(readonly rows: readonly (readonly unknown[])[]) {}
}

/** A column of a RowList: its name and its PostgreSQL type (SQLite takes the JSON value as it is). */
export type RowColumn = [name: string, type: 'int' | 'bigint' | 'smallint' | 'text' | 'float8'];

export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** A statement answering `ok` (true or 1) when the table named $1 exists. */
  readonly tableExists: string;
  /** The column type of a flag (PostgreSQL's boolean; SQLite keeps 0 or 1). */
  readonly booleanType: string;
  /** The files column holding the byte offset after the last complete line. */
  readonly offsetColumn: string;
  /**
   * Whether each statement is a round trip to a server (PostgreSQL): reads then fold what they can
   * into one statement. In process (SQLite) two plain statements can be cheaper than their join.
   */
  readonly roundTrips: boolean;
  /** `expr` is one of the values of the array parameter `param`. */
  inArray(expr: string, param: string, type: 'int' | 'text'): string;
  /**
   * `expr` is one of the values `subquery` selects (a few): PostgreSQL reads them first and looks
   * each up by index, where `IN (subquery)` in a generic plan may scan the whole table.
   */
  inSubquery(expr: string, subquery: string): string;
  /**
   * The RowList parameter `param` as a table `alias` with the named columns and `n`, each row's
   * 1-based position (for keeping the list's order).
   */
  rows(param: string, alias: string, columns: readonly RowColumn[]): string;
  /**
   * A subquery selecting the distinct values of `column` among the rows of `table` whose `key`
   * equals `value`, for an index on (key, column) holding few distinct values per key. PostgreSQL
   * reads them one index probe each (a loose index scan: its DISTINCT walks every entry of the
   * key, 2,311 of them for a large session's files, ~0.3 ms); SQLite is asked the plain DISTINCT.
   * `table` is aliased `e` inside, so `value` must not name an outer `e`.
   */
  distinctByIndex(table: string, key: string, value: string, column: string): string;
  /** The larger of two integers. */
  greatest(a: string, b: string): string;
  /**
   * A join to the one row of `table` (as `alias`) for which `on` holds, found on an index: PostgreSQL's
   * planner, counting on ~100 rows out of a RowList, would otherwise hash a scan of the whole table
   * to keep one or two (a LATERAL subquery with LIMIT 1 is one index probe per outer row).
   */
  joinOneByIndex(table: string, alias: string, on: string): string;
  /** Whether `needle` occurs in `haystack` (both text). */
  contains(haystack: string, needle: string): string;
  /** A text parameter typed and collated as the engine's text columns (where nothing else gives it a type). */
  textParam(param: string): string;
  /** `expr` lower-cased in ASCII only (as SQLite's LIKE folds case). */
  asciiLower(expr: string): string;
  /** The values of the JSON array of text in `expr`, as a table `alias` with the column `value`. */
  jsonTexts(expr: string, alias: string): string;
  /** The sum of a double column, to the last bit as SQLite sums (Kahan-Babuska-Neumaier). */
  floatSum(expr: string): string;
  /** Bytes of a blob column. */
  blobLength(expr: string): string;
  /**
   * `columns` of the first event (lowest part) of each line of `from … WHERE where`, by line number
   * in `order` (an extra column may follow `columns`).
   */
  firstEventOfEachLine(columns: string, from: string, where: string, order: 'ASC' | 'DESC'): string;
  /**
   * Integer columns `ints` (NULL allowed) and a non-NULL text column last, as one text column per
   * row, where the engine's driver pays for every field of every row (PostgreSQL: many-row key
   * reads spent more time parsing fields than the server took); null where columns come over as
   * they are (SQLite, in process). See packed-rows.ts.
   */
  packedRow(ints: readonly string[], text: string): string | null;
}

/** Columns of a RowList as positional JSON lookups over `json` (shared by both dialects). */
export function rowColumns(json: string, columns: readonly RowColumn[], cast: (expr: string, type: RowColumn[1]) => string): string {
  return columns.map(([name, type], i) => `${cast(`${json}->>${i}`, type)} AS ${name}`).join(', ');
}
