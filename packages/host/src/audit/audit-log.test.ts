import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { openStore } from "../store/open-store";
import { AuditLog } from "./audit-log";

const entry = (tool: string) => ({
  userId: "u",
  sessionId: "s",
  conversationId: null,
  instanceId: "host-1",
  source: "app",
  tool,
  verdict: "allowed" as const,
  durationMs: 1,
});

describe("AuditLog", () => {
  it("commits queued rows together, and reading the audit writes what is queued first", async () => {
    const store = await openStore(":memory:");
    const log = new AuditLog(store, { logger: pino({ level: "silent" }), flushMs: 60_000 });
    const view = log.storeView();
    log.record(entry("a"));
    log.record(entry("b"));
    // Nothing is written before the flush (the interval is long here)...
    expect(await store.listAudit({})).toEqual([]);
    // ...but the store as others see it writes the queue before it answers.
    const audit = await view.listAudit({});
    expect(audit.map((row) => row.tool).sort()).toEqual(["a", "b"]);
    await view.close();
  });

  it("flushes at the batch size without waiting for the interval", async () => {
    const store = await openStore(":memory:");
    const log = new AuditLog(store, {
      logger: pino({ level: "silent" }),
      flushMs: 60_000,
      maxBatch: 3,
    });
    for (const tool of ["a", "b", "c"]) log.record(entry(tool));
    await log.flush();
    expect(await store.listAudit({})).toHaveLength(3);
    await store.close();
  });

  it("writes the queue when the store is closed through its view", async () => {
    const store = await openStore(":memory:");
    const log = new AuditLog(store, { logger: pino({ level: "silent" }), flushMs: 60_000 });
    const appendAudits = store.appendAudits.bind(store);
    const written: number[] = [];
    store.appendAudits = async (entries) => {
      written.push(entries.length);
      return appendAudits(entries);
    };
    log.record(entry("a"));
    await log.storeView().close();
    expect(written).toEqual([1]);
  });
});
