// A card's page floods the host through a real socket. Its resource requests
// have a rate limit of their own, and its questions to the person are bounded: a flood gets
// refusals at once, and nothing waits in a queue without bound.
import { afterEach, describe, expect, it } from "vitest";
import { cardQuestionsWaitingRefusal } from "../src/gate/approval-types";
import { mcpChatHost } from "../src/mcp-chat-host";
import {
  PAGE_CALL_RATE_MESSAGE,
  PAGE_RESOURCES_RATE_MESSAGE,
} from "../src/page-calls/page-call-gate";
import { countingApp, greeterApp, openCard, receivedOf, startHost, type TestHost } from "./harness";

let host: TestHost | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
});

describe("a page that floods the host", () => {
  it("limits a card's resources/read, resources/list and templates list with a clear error", async () => {
    const counter = { calls: [] as string[], reads: 0 };
    host = await startHost({
      pageCallRate: { perSecond: 0.001, burst: 5 },
      session(session) {
        mcpChatHost(session.chat(), countingApp(counter));
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "show");
    const readsBefore = counter.reads;

    const flood = await Promise.all(
      Array.from({ length: 200 }, () =>
        client.request("card:read-resource", { instanceId: card.instanceId, uri: "ui://counter" }),
      ),
    );
    expect(flood.filter((answer) => answer.ok)).toHaveLength(5);
    const refusals = flood.filter((answer) => !answer.ok);
    expect(refusals).toHaveLength(195);
    for (const refusal of refusals) {
      expect(refusal).toEqual({
        ok: false,
        error: {
          code: "rate_limited",
          message: PAGE_RESOURCES_RATE_MESSAGE,
          retryable: true,
          rpcCode: -32603,
        },
      });
    }
    expect(PAGE_RESOURCES_RATE_MESSAGE).toBe(
      "This app is reading its resources too often; it was slowed down. Try again in a moment.",
    );
    // Only the admitted reads reached the app's server.
    expect(counter.reads - readsBefore).toBe(5);

    // Listing spends from the same budget.
    for (const event of ["card:list-resources", "card:list-resource-templates"] as const) {
      const answer = await client.request(event, { instanceId: card.instanceId });
      expect(answer).toMatchObject({ ok: false, error: { code: "rate_limited" } });
    }
    // Its tool calls have a budget of their own, and another card is not slowed down.
    expect(
      await client.request("card:call-tool", {
        instanceId: card.instanceId,
        name: "bump",
        arguments: {},
      }),
    ).toMatchObject({ ok: true });
    expect(counter.calls).toEqual(["bump"]);
    const other = await openCard(client, "chat-1", "show");
    expect(
      await client.request("card:list-resources", { instanceId: other.instanceId }),
    ).toMatchObject({ ok: true });
  });

  it("takes a card's page-call budget from the config's host.pageCalls", async () => {
    const counter = { calls: [] as string[], reads: 0 };
    host = await startHost({
      config: { mcpServers: {}, host: { pageCalls: { perSecond: 0.001, burst: 3 } } },
      session(session) {
        mcpChatHost(session.chat(), countingApp(counter));
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "show");
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        client.request("card:call-tool", {
          instanceId: card.instanceId,
          name: "bump",
          arguments: {},
        }),
      ),
    );
    // The burst of 3 passes; the rest are refused (the default burst, 40, would pass all 10).
    expect(answers.filter((answer) => answer.ok)).toHaveLength(3);
    for (const refusal of answers.filter((answer) => !answer.ok)) {
      expect(refusal).toMatchObject({
        ok: false,
        error: { code: "rate_limited", message: PAGE_CALL_RATE_MESSAGE, retryable: true },
      });
    }
    expect(counter.calls).toHaveLength(3);
  });

  it("stops the start when host.pageCalls is not valid, naming the field", async () => {
    await expect(
      startHost({ config: { mcpServers: {}, host: { pageCalls: { burst: 0 } } } }),
    ).rejects.toThrow(
      "host.pageCalls.burst must be a whole number from 1 to 1000000, not 0. Fix it in the configuration file.",
    );
  });

  it("keeps at most 3 of one card's 140 questions waiting and refuses the rest at once", async () => {
    const counter = { calls: [] as string[] };
    host = await startHost({
      pageCallRate: { perSecond: 1, burst: 1_000 },
      session(session) {
        mcpChatHost(session.chat(), greeterApp(counter), { onAppCall: (call) => call.ask() });
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    const card = await openCard(client, "chat-1", "greet", { name: "A" });

    const calls = Array.from({ length: 140 }, (_value, index) =>
      client.request("card:call-tool", {
        instanceId: card.instanceId,
        name: "set-name",
        arguments: { name: `flood-${index}` },
      }),
    );
    // The first three wait for the person; every other call is answered at once.
    const refused = await Promise.all(calls.slice(3));
    for (const answer of refused) {
      expect(answer).toEqual({
        ok: false,
        error: {
          code: "refused",
          message: cardQuestionsWaitingRefusal(3),
          rpcCode: -32602,
          retryable: false,
        },
      });
    }
    // Events reach the client in the order they were sent, so every dialog request sent before
    // this answer has arrived.
    await client.value("conversation:list", {});
    const requests = receivedOf(client, "approval:request");
    expect(requests.map((request) => request.arguments)).toEqual([
      { name: "flood-0" },
      { name: "flood-1" },
      { name: "flood-2" },
    ]);
    expect(counter.calls.filter((entry) => entry.startsWith("set-name"))).toEqual([]);

    // The person answers; the three calls go through, and the card may ask again.
    for (const request of requests) {
      await client.value("approval:answer", {
        approvalId: request.approvalId,
        decision: "allow-once",
      });
    }
    expect((await Promise.all(calls.slice(0, 3))).map((answer) => answer.ok)).toEqual([
      true,
      true,
      true,
    ]);
    const again = client.request("card:call-tool", {
      instanceId: card.instanceId,
      name: "set-name",
      arguments: { name: "after" },
    });
    const request = await client.next(
      "approval:request",
      (payload) => payload.arguments["name"] === "after",
    );
    await client.value("approval:answer", { approvalId: request.approvalId, decision: "refuse" });
    expect(await again).toMatchObject({ ok: false, error: { code: "refused" } });
    const audit = await host.server.store.listAudit({
      conversationId: card.conversationId!,
      limit: 1_000,
    });
    expect(
      audit
        .filter((row) => row.reason === cardQuestionsWaitingRefusal(3))
        .map((row) => row.verdict),
    ).toEqual(Array.from({ length: 137 }, () => "refused"));
  });
});
