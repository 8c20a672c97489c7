/** A value bound to a `$n` placeholder: the same types work on PGlite and on `pg`. */
export type SqlParam = string | number | boolean | null | Uint8Array;

/** One row as both drivers return it: column name to value (jsonb parsed, timestamptz as Date). */
export type SqlRow = Record<string, unknown>;

/** Runs one statement with `$1…$n` parameters and returns its rows. */
export interface SqlQuery {
  query(sql: string, params?: readonly SqlParam[]): Promise<SqlRow[]>;
}

/**
 * The store's whole view of a database: plain SQL, a transaction, close. PGlite and PostgreSQL (`pg`) both
 * implement it, so every query in src/serve/store runs unchanged on either.
 */
export interface SqlDriver extends SqlQuery {
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it rejects. */
  transaction<T>(fn: (tx: SqlQuery) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Which engine this is, for messages (`pglite` or `postgres`). */
  readonly kind: "pglite" | "postgres";
}
