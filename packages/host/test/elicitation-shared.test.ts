// A server's question on a stdio server the whole process shares: it goes to the session whose
// call is in flight; when calls of two sessions are in flight at once, nobody can tell which
// person was asked, so the question is declined and the log says why. A real stdio child
// (test/fixtures/asker-server.mjs, the v2 server SDK) and two tabs of a real host.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { exchange, startHost, type TestHost } from "./harness";

const askerServer = fileURLToPath(new URL("./fixtures/asker-server.mjs", import.meta.url));

let host: TestHost | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
});

describe("a question on a shared stdio server", () => {
  it("reaches the session whose call asked, and is declined when two sessions' calls are in flight", async () => {
    host = await startHost({
      config: { mcpServers: { asker: { command: process.execPath, args: [askerServer] } } },
    });
    const first = await host.connect({ tabId: "tab-1" });
    const second = await host.connect({ tabId: "tab-2" });
    await first.value("session:hello", {});
    await second.value("session:hello", {});

    const firstReply = exchange(first, "chat-1", "/call ask_person {}");
    const question = await first.next("elicitation:request");
    expect(question).toMatchObject({ server: "asker", chatId: "chat-1" });

    // The second session's call asks while the first one's still waits: declined, not shown.
    const secondReply = await exchange(second, "chat-1", "/call ask_person {}");
    expect(secondReply.text).toContain("The person answered decline.");
    expect(second.received.map((entry) => entry.event)).not.toContain("elicitation:request");
    expect(
      host.logs.some(
        (line) =>
          line["source"] === "asker" &&
          line["msg"] ===
            "declined a question: calls of 2 sessions were in flight on this shared connection, so who was asked is unknown",
      ),
    ).toBe(true);

    await first.value("elicitation:answer", {
      elicitationId: question.elicitationId,
      action: "accept",
      content: { name: "Ada" },
    });
    expect((await firstReply).text).toContain("Hello, Ada!");
  });
});
