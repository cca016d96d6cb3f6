import type Database from "better-sqlite3";

/**
 * One connection's prepared statements, cached by their SQL, and the three ways to run one. The
 * tables classes (`SqliteTables`, `SqliteCardTables`) build on it.
 */
export class SqliteStatements {
  private readonly database: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();

  /** @param database - the open connection, owned by the caller. */
  constructor(database: Database.Database) {
    this.database = database;
  }

  /** Forgets the prepared statements (before the connection closes). */
  clear(): void {
    this.statements.clear();
  }

  private statement(sql: string): Database.Statement {
    let prepared = this.statements.get(sql);
    if (prepared === undefined) {
      prepared = this.database.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  protected get<Row>(sql: string, ...values: unknown[]): Row | undefined {
    return this.statement(sql).get(...values) as Row | undefined;
  }

  protected all<Row>(sql: string, ...values: unknown[]): Row[] {
    return this.statement(sql).all(...values) as Row[];
  }

  /** Runs a write statement; returns the number of rows it changed. */
  protected run(sql: string, ...values: unknown[]): number {
    return this.statement(sql).run(...values).changes;
  }
}
