// People's sealed grants for remote MCP servers, against SQLite and Postgres: kept per person and
// server, replaced, listed, removed with the person, and locked so one refresh runs at a time.
import { afterEach, beforeEach, expect, it } from "vitest";
import { describeEachStore } from "../../test/store-kinds";
import type { HostStore } from "./host-store";

describeEachStore((kind) => {
  let store: HostStore;

  beforeEach(async () => {
    store = await kind.open(await kind.freshSpec());
    await store.ensureUser("ada", "Ada");
    await store.ensureUser("bob", "Bob");
  });

  afterEach(async () => {
    await store.close();
  });

  it("keeps each person's grant for each server apart, replaces it and forgets it", async () => {
    await store.saveServerGrant({ userId: "ada", server: "notes", sealed: "v1.a", updatedAt: 10 });
    await store.saveServerGrant({ userId: "ada", server: "tasks", sealed: "v1.b", updatedAt: 11 });
    await store.saveServerGrant({ userId: "bob", server: "notes", sealed: "v1.c", updatedAt: 12 });
    expect(await store.getServerGrant("ada", "notes")).toEqual({
      userId: "ada",
      server: "notes",
      sealed: "v1.a",
      updatedAt: 10,
    });
    expect(await store.listServerGrants("ada")).toEqual(["notes", "tasks"]);
    expect(await store.listServerGrants("bob")).toEqual(["notes"]);
    await store.saveServerGrant({ userId: "ada", server: "notes", sealed: "v1.d", updatedAt: 20 });
    expect((await store.getServerGrant("ada", "notes"))?.sealed).toBe("v1.d");
    expect((await store.getServerGrant("bob", "notes"))?.sealed).toBe("v1.c");
    expect(await store.deleteServerGrant("ada", "notes")).toBe(true);
    expect(await store.deleteServerGrant("ada", "notes")).toBe(false);
    expect(await store.getServerGrant("ada", "notes")).toBeNull();
    expect(await store.getServerGrant("carol", "notes")).toBeNull();
  });

  it("runs one holder of a grant's lock at a time, and others' grants in parallel", async () => {
    const order: string[] = [];
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstEntered!: () => void;
    const entered = new Promise<void>((resolve) => (firstEntered = resolve));
    const first = store.withServerGrantLock("ada", "notes", async () => {
      order.push("first in");
      firstEntered();
      await firstHeld;
      order.push("first out");
      return 1;
    });
    await entered;
    const second = store.withServerGrantLock("ada", "notes", async () => {
      order.push("second in");
      return 2;
    });
    // Another person's lock is not held up by Ada's.
    expect(await store.withServerGrantLock("bob", "notes", async () => "bob")).toBe("bob");
    releaseFirst();
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(order).toEqual(["first in", "first out", "second in"]);
  });
});
