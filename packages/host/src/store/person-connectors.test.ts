// The servers people add themselves, against SQLite and Postgres: kept per person, replaced,
// listed by name, removed, and gone with the person.
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

  it("keeps each person's connectors apart, replaces one and forgets it", async () => {
    const notes = {
      userId: "ada",
      name: "notes.example.com",
      url: "https://notes.example.com/mcp",
    };
    await store.saveConnector({ ...notes, createdAt: 10 });
    await store.saveConnector({
      userId: "ada",
      name: "a.example.com",
      url: "https://a.example.com/mcp",
      createdAt: 11,
    });
    await store.saveConnector({ ...notes, userId: "bob", createdAt: 12 });
    expect(await store.listConnectors("ada")).toEqual([
      { userId: "ada", name: "a.example.com", url: "https://a.example.com/mcp", createdAt: 11 },
      { ...notes, createdAt: 10 },
    ]);
    expect((await store.listConnectors("bob")).map((connector) => connector.userId)).toEqual([
      "bob",
    ]);
    await store.saveConnector({ ...notes, url: "https://notes.example.com/v2", createdAt: 20 });
    expect((await store.listConnectors("ada"))[1]?.url).toBe("https://notes.example.com/v2");
    expect(await store.deleteConnector("ada", notes.name)).toBe(true);
    expect(await store.deleteConnector("ada", notes.name)).toBe(false);
    expect((await store.listConnectors("ada")).map((connector) => connector.name)).toEqual([
      "a.example.com",
    ]);
    expect(await store.listConnectors("bob")).toHaveLength(1);
    expect(await store.listConnectors("carol")).toEqual([]);
  });
});
