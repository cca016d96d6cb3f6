// The stores the store contract tests run against: SQLite on a file and Postgres (a real server,
// started by the test itself on 127.0.0.1 in a temporary folder). Each test gets a fresh, empty
// store; `describeEachStore` runs the same tests once per store.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPostgres, type RunningPostgres } from "@mcp-chat-host/testing";
import { afterAll, beforeAll, describe } from "vitest";
import type { HostStore } from "../src/store/host-store";
import { openStore, type OpenStoreOptions } from "../src/store/open-store";

/** The migrated database every Postgres test database is copied from. */
const templateName = "store_template";

/** One store implementation, as the contract tests see it. */
export interface StoreKind {
  /** "SqliteStore" or "PostgresStore". */
  readonly name: string;
  /** The specification of a new, empty store (a new file, or a new database). */
  freshSpec(): Promise<string>;
  /** Opens the store a specification names (the way the server does). */
  open(spec: string, options?: OpenStoreOptions): Promise<HostStore>;
  /** The running Postgres server, for the Postgres kind (fault tests stop and restart it). */
  readonly postgres: () => RunningPostgres;
}

/**
 * Declares `body`'s tests once per store, inside a `describe` named after it. The Postgres server
 * starts before the first of its tests and is stopped (its folder removed) after the last.
 *
 * @param body - declares the tests; `kind` opens stores of one implementation.
 */
export function describeEachStore(body: (kind: StoreKind) => void): void {
  describe("SqliteStore", () => {
    let folder = "";
    let files = 0;
    beforeAll(() => {
      folder = mkdtempSync(join(tmpdir(), "mcp-chat-host-store-kinds-"));
    });
    afterAll(() => {
      rmSync(folder, { recursive: true, force: true });
    });
    body({
      name: "SqliteStore",
      freshSpec: () => Promise.resolve(`sqlite:${join(folder, `host-${(files += 1)}.db`)}`),
      open: (spec, options) => openStore(spec, options),
      postgres: () => {
        throw new Error("The SQLite store has no Postgres server.");
      },
    });
  });

  describe("PostgresStore", () => {
    let server: RunningPostgres | undefined;
    beforeAll(async () => {
      server = await startPostgres();
      // Migrated once; each test's database is a copy, which is quicker than migrating again.
      const template = await openStore(await server.createDatabase(templateName));
      await template.close();
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    });
    const running = () => {
      if (server === undefined) throw new Error("The Postgres server did not start.");
      return server;
    };
    body({
      name: "PostgresStore",
      freshSpec: () => running().createDatabase(undefined, { template: templateName }),
      open: (spec, options) => openStore(spec, options),
      postgres: running,
    });
  });
}
