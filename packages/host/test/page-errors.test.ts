// What a card's page reads when its source fails in a way the host did not expect: the wire
// mapping's internal sentence with the page's JSON-RPC code, never the error's own message; the
// server log keeps the detail. One source's methods are broken on demand.
import { afterEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../src/mcp-chat-host";
import { INTERNAL_ERROR_MESSAGE } from "../src/errors/internal-error";
import type { Source, SourceFactory } from "../src/sources/source";
import { exchange, greeterApp, openCard, startHost, type TestHost } from "./harness";

const SECRET = "secret detail at /srv/internal/app.js:12";

let host: TestHost | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
});

/** The greeter, whose source throws a plain TypeError from the methods named in `broken`. */
function breakableGreeter(broken: Set<string>): SourceFactory {
  const app = greeterApp();
  return {
    key: app.key,
    kind: app.kind,
    async open() {
      const source = await app.open();
      return new Proxy(source, {
        get(target, property) {
          const value: unknown = Reflect.get(target, property, target);
          if (typeof value !== "function") return value;
          return (...args: unknown[]) => {
            if (broken.has(String(property))) throw new TypeError(SECRET);
            return (value as (...inner: unknown[]) => unknown).apply(target, args);
          };
        },
      }) satisfies Source;
    },
  };
}

const internal = { code: "internal", message: INTERNAL_ERROR_MESSAGE, retryable: false };

describe("a page whose source fails unexpectedly", () => {
  it("reads the internal sentence with its JSON-RPC code on a tool call and a resource read", async () => {
    const broken = new Set<string>();
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), breakableGreeter(broken));
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "greet", { name: "Ada" });
    // The source still lists its tools; the call and the read fail.
    broken.add("callTool").add("readResource");

    const call = await client.request("card:call-tool", {
      instanceId: card.instanceId,
      name: "set-name",
      arguments: { name: "Bo" },
    });
    const read = await client.request("card:read-resource", {
      instanceId: card.instanceId,
      uri: "ui://greeter/view",
    });
    for (const answer of [call, read]) {
      expect(answer).toEqual({ ok: false, error: { ...internal, rpcCode: -32603 } });
    }
    expect(JSON.stringify(client.received)).not.toContain(SECRET);
    // The audit, which the person may read too, says what the page read.
    const audit = await host.server.store.listAudit({ conversationId: card.conversationId! });
    expect(audit.find((entry) => entry.tool === "set-name")).toMatchObject({
      verdict: "failed",
      reason: INTERNAL_ERROR_MESSAGE,
    });
    // The operator's log has what happened, once per request.
    const failures = host.logs.filter((line) => line.msg === "A socket handler failed.");
    expect(failures).toHaveLength(2);
    expect(JSON.stringify(failures)).toContain(SECRET);
  });

  it("reads the internal sentence when attaching fails", async () => {
    const broken = new Set<string>();
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), breakableGreeter(broken));
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "greet", { name: "Ada" });
    broken.add("tools");

    expect(await client.request("card:attach", { instanceId: card.instanceId })).toEqual({
      ok: false,
      error: internal,
    });
    expect(JSON.stringify(client.received)).not.toContain(SECRET);
    expect(JSON.stringify(host.logs)).toContain(SECRET);
  });

  it("tells the model and the card general words when the opening call fails that way", async () => {
    const broken = new Set(["callTool"]);
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), breakableGreeter(broken));
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});

    const done = await exchange(client, "chat-1", '/call greet {"name":"Ada"}');
    const call = done.reply.parts.find((part) => part.type === "tool");
    expect(call).toMatchObject({ state: "output-error" });
    expect(call?.type === "tool" && call.errorText).toContain(INTERNAL_ERROR_MESSAGE);
    expect(JSON.stringify(client.received)).not.toContain(SECRET);
    const logged = host.logs.filter(
      (line) => line.msg === "a model's tool call failed unexpectedly",
    );
    expect(logged).toHaveLength(1);
    expect(JSON.stringify(logged)).toContain(SECRET);
  });

  it("tells the tab a source's attach failed without the error's own words, which go to the log", async () => {
    host = await startHost({
      session(session) {
        mcpChatHost(session.chat(), {
          key: "broken",
          kind: "app",
          open: () => Promise.reject(new TypeError(SECRET)),
        });
      },
    });
    const client = await host.connect();
    // It failed before the tab was connected; the notice waited for it.
    const notice = await client.next("notice", (payload) => payload.message.includes('"broken"'));
    expect(notice.message).toContain("Reload the page to try again");
    await client.value("session:hello", {});
    // The sentence the person is told is the one logged; the error's own words are its detail.
    const [line] = host.logs.filter((entry) => entry["source"] === "broken");
    expect(line?.msg).toContain("Reload the page to try again");
    expect(line?.msg).not.toContain(SECRET);
    expect(line?.["detail"]).toBe(SECRET);
    expect(JSON.stringify(client.received)).not.toContain(SECRET);
    expect(JSON.stringify(host.logs)).toContain(SECRET);
  });
});
