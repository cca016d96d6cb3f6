import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../store/open-store";
import type { HostStore } from "../store/host-store";
import { metricSample } from "../testing";
import { noHostMetrics } from "./host-metrics";
import { measuredStore } from "./measured-store";
import { PrometheusHostMetrics } from "./prometheus-host-metrics";

let store: HostStore | null = null;
afterEach(async () => {
  await store?.close();
  store = null;
});

describe("measuredStore", () => {
  it("times each operation by its name and counts the ones that fail, passing results through", async () => {
    store = await openStore(":memory:");
    const metrics = new PrometheusHostMetrics();
    const measured = measuredStore(store, metrics);
    const user = await measured.ensureUser("person-1", "Person");
    expect(user.id).toBe("person-1");
    expect(await measured.getUser("person-1")).toMatchObject({ id: "person-1" });
    // A conversation of a user who does not exist: the store refuses it.
    await expect(measured.appendMessage({} as never)).rejects.toThrow();

    const text = (await metrics.scrape()).body;
    const count = "mcp_chat_host_store_operation_duration_seconds_count";
    expect(metricSample(text, count, { operation: "ensureUser" })).toBe(1);
    expect(metricSample(text, count, { operation: "getUser" })).toBe(1);
    expect(metricSample(text, count, { operation: "appendMessage" })).toBe(1);
    const failures = "mcp_chat_host_store_operation_failures_total";
    expect(metricSample(text, failures, { operation: "appendMessage" })).toBe(1);
    expect(metricSample(text, failures, { operation: "getUser" })).toBe(0);
    // No argument reaches a label.
    expect(text).not.toContain("person-1");
  });

  it("is the store itself when metrics are off", async () => {
    store = await openStore(":memory:");
    expect(measuredStore(store, noHostMetrics)).toBe(store);
  });
});
