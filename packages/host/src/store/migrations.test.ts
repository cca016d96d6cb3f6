import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  latestSchemaVersion,
  migrate,
  migrations,
  schemaVersion,
  type Migration,
} from "./migrations";

describe("migrate", () => {
  let database: Database.Database;

  beforeEach(() => {
    database = new Database(":memory:");
  });

  afterEach(() => {
    database.close();
  });

  function tables(): string[] {
    return (
      database
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .all() as {
        name: string;
      }[]
    ).map((row) => row.name);
  }

  it("builds the schema on a new file once, and records its version", () => {
    expect(migrate(database)).toEqual([1]);
    expect(schemaVersion(database)).toBe(latestSchemaVersion);
    expect(tables()).toEqual(["approvals", "audit", "cards", "conversations", "messages", "users"]);
    expect(migrate(database)).toEqual([]);
  });

  it("applies only the steps a file has not run, keeping its data", () => {
    migrate(database);
    database.prepare("INSERT INTO users (id, name, created_at) VALUES ('ada', 'Ada', 1)").run();
    const next: Migration = {
      version: 2,
      description: "test step",
      up(target) {
        target.exec("ALTER TABLE users ADD COLUMN email TEXT");
      },
    };
    expect(migrate(database, [...migrations, next])).toEqual([2]);
    expect(schemaVersion(database)).toBe(2);
    expect(database.prepare("SELECT id, email FROM users").all()).toEqual([
      { id: "ada", email: null },
    ]);
  });

  it("rolls a failing step back whole and leaves the version where it was", () => {
    migrate(database);
    const broken: Migration = {
      version: 2,
      description: "fails half way",
      up(target) {
        target.exec("CREATE TABLE half_done (id TEXT)");
        target.exec("THIS IS NOT SQL");
      },
    };
    expect(() => migrate(database, [...migrations, broken])).toThrow();
    expect(schemaVersion(database)).toBe(1);
    expect(tables()).not.toContain("half_done");
  });

  it("refuses a schema newer than it knows", () => {
    database.pragma("user_version = 7");
    expect(() => migrate(database)).toThrow(/schema 7; this one knows up to 1/);
  });
});
