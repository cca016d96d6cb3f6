// `card:attach` through a real socket and host: the reply names its page's hash, and leaves the
// page out when the attach names that hash among the pages the tab holds.
import { afterEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../src/mcp-chat-host";
import { greeterApp, openCard, startHost, type TestHost } from "./harness";

let host: TestHost | null = null;

/** A proxy URL without its expiry and signature. */
function unsigned(proxyUrl: string): string {
  const url = new URL(proxyUrl);
  url.searchParams.delete("exp");
  url.searchParams.delete("sig");
  return url.toString();
}
afterEach(async () => {
  await host?.close();
  host = null;
});

describe("card:attach and the pages a tab holds", () => {
  it("sends the page once, then only its hash, and again when asked without it", async () => {
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), greeterApp());
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const first = await openCard(client, "chat-1", "greet", { name: "Ada" });
    const second = await openCard(client, "chat-1", "greet", { name: "Bo" });

    const fresh = await client.value("card:attach", { instanceId: first.instanceId });
    expect(fresh.page.html).toContain("Greeter");
    const hash = fresh.page.viewHash;
    expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const held = await client.value("card:attach", {
      instanceId: second.instanceId,
      views: [hash ?? ""],
    });
    expect(held.page.viewHash).toBe(hash);
    expect(held.page.html).toBeUndefined();
    // The CSP and proxy URL still come with every attach (each signed afresh, with its expiry).
    expect(unsigned(held.page.proxyUrl)).toBe(unsigned(fresh.page.proxyUrl));
    expect(new URL(held.page.proxyUrl).searchParams.get("sig")).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const otherHash = await client.value("card:attach", {
      instanceId: second.instanceId,
      views: ["not-this-page"],
    });
    expect(otherHash.page.html).toBe(fresh.page.html);
  });
});
