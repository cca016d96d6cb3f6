import type { PoolClient, QueryResultRow } from "pg";

/** A connection, or the pool (for a single statement outside a transaction). */
export type Queryable = Pick<PoolClient, "query">;

/** The first row of a query, or undefined. */
export async function one<Row extends QueryResultRow>(
  db: Queryable,
  sql: string,
  values: unknown[],
): Promise<Row | undefined> {
  return (await db.query<Row>(sql, values)).rows[0];
}

/** Every row of a query. */
export async function all<Row extends QueryResultRow>(
  db: Queryable,
  sql: string,
  values: unknown[],
): Promise<Row[]> {
  return (await db.query<Row>(sql, values)).rows;
}
