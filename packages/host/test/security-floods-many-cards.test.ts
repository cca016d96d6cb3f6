// Many cards flood the host together through a real socket. One card's budget is not the
// bound: the cards of one source share their source's, and all cards of a session share the
// session's, for every kind of page request (tool calls, resource requests, context updates,
// messages, log lines).
import { afterEach, describe, expect, it } from "vitest";
import { mcpChatHost } from "../src/mcp-chat-host";
import { pageLimitMessage } from "../src/page-calls/page-request-limits";
import {
  countingApp,
  greeterApp,
  headerUsers,
  openCard,
  startHost,
  type TestClient,
  type TestHost,
} from "./harness";

let host: TestHost | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
});

type Answer = Awaited<ReturnType<TestClient["request"]>>;

/** The refusals' messages, each once, in the order first seen. */
function refusalMessages(answers: readonly Answer[]): string[] {
  const messages = answers.flatMap((answer) =>
    answer.ok ? [] : [(answer.error as { message: string }).message],
  );
  return [...new Set(messages)];
}

describe("cards that flood the host together", () => {
  it("bounds six cards of one source by their source's budget, and every source by the session's", async () => {
    const counter = { calls: [] as string[], reads: 0 };
    host = await startHost({
      // One card may read 5 at once; its source's cards 10; the session's 14.
      pageCallRate: {
        perSecond: 0.001,
        burst: 5,
        perSource: { perSecond: 0.001, burst: 10 },
        perSession: { perSecond: 0.001, burst: 14 },
      },
      auth: headerUsers,
      session(session) {
        mcpChatHost(session.chat(), [countingApp(counter), greeterApp()]);
      },
    });
    const client = await host.connect({ tabId: "ada", headers: { "x-test-user": "ada" } });
    await client.value("session:hello", {});
    const cards = [];
    for (let index = 0; index < 6; index += 1) cards.push(await openCard(client, "chat-1", "show"));
    const readsBefore = counter.reads;

    const flood = await Promise.all(
      cards.flatMap((card) =>
        Array.from({ length: 50 }, () =>
          client.request("card:read-resource", {
            instanceId: card.instanceId,
            uri: "ui://counter",
          }),
        ),
      ),
    );
    // Six cards of 5 each would be 30; their source lets 10 through in all.
    expect(flood.filter((answer) => answer.ok)).toHaveLength(10);
    expect(counter.reads - readsBefore).toBe(10);
    const sourceRefusal = pageLimitMessage("resources", "source", "counter");
    expect(sourceRefusal).toBe(
      'The apps of the server "counter" are reading their resources too often; they were slowed down. Try again in a moment.',
    );
    expect(refusalMessages(flood)).toEqual([
      pageLimitMessage("resources", "card", "counter"),
      sourceRefusal,
    ]);
    for (const refusal of flood.filter((answer) => !answer.ok)) {
      expect(refusal).toMatchObject({
        ok: false,
        error: { code: "rate_limited", retryable: true },
      });
    }

    // Another source's card has its source's budget, but the session's has only 4 left.
    const greeter = await openCard(client, "chat-1", "greet", { name: "Ada" });
    const greeterReads = await Promise.all(
      Array.from({ length: 10 }, () =>
        client.request("card:read-resource", {
          instanceId: greeter.instanceId,
          uri: "ui://greeter",
        }),
      ),
    );
    expect(greeterReads.filter((answer) => answer.ok)).toHaveLength(4);
    expect(refusalMessages(greeterReads)).toEqual([
      "The apps open in this session are reading their resources too often; they were slowed down. Try again in a moment.",
    ]);

    // The budgets are per kind: the flood of reads left the tool calls alone.
    expect(
      await client.request("card:call-tool", {
        instanceId: greeter.instanceId,
        name: "set-name",
        arguments: { name: "Grace" },
      }),
    ).toMatchObject({ ok: true });

    // Another person's session is not slowed down by this one.
    const other = await host.connect({ tabId: "grace", headers: { "x-test-user": "grace" } });
    await other.value("session:hello", {});
    const theirs = await openCard(other, "chat-1", "show");
    expect(
      await other.request("card:read-resource", {
        instanceId: theirs.instanceId,
        uri: "ui://counter",
      }),
    ).toMatchObject({ ok: true });
  });

  it("gives context updates, messages and log lines a card budget each, like tool calls", async () => {
    host = await startHost({
      pageCallRate: { perSecond: 0.001, burst: 3 },
      session(session) {
        mcpChatHost(session.chat(), greeterApp());
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "greet", { name: "Ada" });
    const content = [{ type: "text", text: "Ada is greeted." }];
    const floods = {
      context: () =>
        client.request("card:update-context", { instanceId: card.instanceId, content }),
      messages: () =>
        client.request("card:post-message", { instanceId: card.instanceId, role: "user", content }),
      logs: () =>
        client.request("card:log", { instanceId: card.instanceId, level: "info", data: "tick" }),
    } as const;
    for (const [kind, request] of Object.entries(floods)) {
      const answers = await Promise.all(Array.from({ length: 20 }, () => request()));
      expect(
        answers.filter((answer) => answer.ok),
        kind,
      ).toHaveLength(3);
      expect(refusalMessages(answers), kind).toEqual([
        pageLimitMessage(kind as keyof typeof floods, "card", "greeter"),
      ]);
    }
    expect(pageLimitMessage("context", "card", "greeter")).toBe(
      "This app is updating what the model is told too often; it was slowed down. Try again in a moment.",
    );
    // A card's log lines must come from a card running in the session.
    expect(
      await client.request("card:log", { instanceId: "no-such-card", level: "info", data: "x" }),
    ).toMatchObject({ ok: false, error: { code: "not_found" } });
  });
});
