// A server's questions to the person, end to end through a real host: a real MCP server (the v2
// server SDK over Streamable HTTP on 127.0.0.1) whose tool asks the person for their name, with
// `elicitInput` on the 2025 revision and an `inputRequired` round on 2026-07-28. The question
// reaches the tab as `elicitation:request`, the tab's answer reaches the server, a wrong form is
// refused, and a question nobody answers is cancelled and said so.
import type { ServerEvents } from "@mcp-chat-host/protocol";
import {
  McpServer,
  inputRequired,
  inputResponse,
  type ElicitRequestFormParams,
} from "@modelcontextprotocol/server";
import { registerAppResource, registerAppTool } from "@modelcontextprotocol/ext-apps/server";
import { afterEach, describe, expect, it } from "vitest";
import type { HostServerOptions } from "../src/host-server-options";
import {
  serveMcpOverHttp,
  type HttpMcpServer,
  type McpServerEra,
} from "../src/sources/fixtures/serve-mcp-over-http";
import { exchange, openCard, startHost, type TestClient, type TestHost } from "./harness";

const QUESTION = "What should I call you?";
const PAGE_URI = "ui://asker/page";
const SCHEMA: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: {
    name: { type: "string", title: "Your name", minLength: 1 },
    age: { type: "integer", minimum: 0 },
  },
  required: ["name"],
};

/** What the server was answered, in order. */
type Answer = { action: string; content?: Record<string, unknown> | undefined };

let host: TestHost | null = null;
let server: HttpMcpServer | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
  await server?.close();
  server = null;
});

/** A server with one tool that asks the person their name, the way each revision asks. */
function askerServer(answers: Answer[], capabilities: unknown[]): () => McpServer {
  return () => {
    const mcp = new McpServer({ name: "asker", version: "1.0.0" });
    mcp.registerTool(
      "ask_person",
      {
        description: "Asks the person for their name.",
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async (context) => {
        let answer: Answer;
        if (context.mcpReq.envelope !== undefined) {
          // 2026-07-28: no request to the client; the result asks, and the retry carries the answer.
          const response = inputResponse(context.mcpReq.inputResponses, "name");
          if (response.kind === "missing") {
            return inputRequired({
              inputRequests: {
                name: inputRequired.elicit({ message: QUESTION, requestedSchema: SCHEMA }),
              },
            });
          }
          if (response.kind !== "elicit") throw new Error("not an elicitation answer");
          answer = { action: response.action, content: response.content };
        } else {
          capabilities.push(mcp.server.getClientCapabilities()?.elicitation);
          const result = await context.mcpReq.elicitInput({
            mode: "form",
            message: QUESTION,
            requestedSchema: SCHEMA,
          });
          answer = { action: result.action, content: result.content };
        }
        answers.push(answer);
        return { content: [{ type: "text", text: `The person said ${JSON.stringify(answer)}.` }] };
      },
    );
    // A card whose page may call `ask_person` too.
    registerAppTool(
      mcp,
      "show-asker",
      {
        description: "Shows the asker.",
        inputSchema: {},
        _meta: { ui: { resourceUri: PAGE_URI } },
      },
      async () => ({ content: [{ type: "text" as const, text: "The asker is open." }] }),
    );
    registerAppResource(mcp, "Asker", PAGE_URI, {}, async () => ({
      contents: [
        {
          uri: PAGE_URI,
          mimeType: "text/html;profile=mcp-app",
          text: "<!doctype html><p>Asker</p>",
        },
      ],
    }));
    return mcp;
  };
}

async function started(era: McpServerEra, options: HostServerOptions = {}) {
  const answers: Answer[] = [];
  const capabilities: unknown[] = [];
  server = await serveMcpOverHttp(askerServer(answers, capabilities), era);
  host = await startHost({
    config: { mcpServers: { asker: { url: server.url, timeout: 10 } } },
    ...options,
  });
  const client = await host.connect();
  await client.value("session:hello", {});
  return { client, answers, capabilities };
}

/** Starts a turn that calls the asking tool; resolves once the question reached the tab. */
async function ask(client: TestClient) {
  const reply = exchange(client, "chat-1", "/call ask_person {}");
  const request = await client.next("elicitation:request");
  return { reply, request };
}

function settledOf(client: TestClient, elicitationId: string) {
  return client.next(
    "elicitation:settled",
    (payload: ServerEvents["elicitation:settled"]) => payload.elicitationId === elicitationId,
  );
}

describe("a server's questions to the person", () => {
  it("shows the question naming the server, and sends the accepted form to the server", async () => {
    const { client, answers, capabilities } = await started("session");
    const { reply, request } = await ask(client);
    expect(request).toMatchObject({
      server: "asker",
      chatId: "chat-1",
      mode: "form",
      message: QUESTION,
      requestedSchema: SCHEMA,
    });
    expect(request.expiresAt).toBeGreaterThan(Date.now());
    const settled = settledOf(client, request.elicitationId);
    await client.value("elicitation:answer", {
      elicitationId: request.elicitationId,
      action: "accept",
      content: { name: "Ada", age: 36 },
    });
    expect(await settled).toEqual({ elicitationId: request.elicitationId, outcome: "answered" });
    await reply;
    expect(answers).toEqual([{ action: "accept", content: { name: "Ada", age: 36 } }]);
    // The host declared both modes, so the server knew it may ask.
    expect(capabilities).toEqual([{ form: {}, url: {} }]);
  });

  it("answers a 2026-07-28 inputRequired round through the same dialog", async () => {
    const { client, answers } = await started("modern");
    const { reply, request } = await ask(client);
    expect(request).toMatchObject({ server: "asker", mode: "form", message: QUESTION });
    await client.value("elicitation:answer", {
      elicitationId: request.elicitationId,
      action: "accept",
      content: { name: "Grace" },
    });
    await reply;
    expect(answers).toEqual([{ action: "accept", content: { name: "Grace" } }]);
  });

  it.each(["decline", "cancel"] as const)("passes a %s on to the server", async (action) => {
    const { client, answers } = await started("session");
    const { reply, request } = await ask(client);
    await client.value("elicitation:answer", { elicitationId: request.elicitationId, action });
    await reply;
    expect(answers).toEqual([{ action, content: undefined }]);
  });

  it("refuses a wrong form with a sentence per field and keeps the question", async () => {
    const { client, answers } = await started("session");
    const { reply, request } = await ask(client);
    const refused = await client.request("elicitation:answer", {
      elicitationId: request.elicitationId,
      action: "accept",
      content: { age: -1 },
    });
    expect(refused).toEqual({
      ok: false,
      error: expect.objectContaining({
        code: "bad_request",
        message:
          'Your answer was not sent: Fill in "Your name"; it is required. "age" must be at least 0.',
      }),
    });
    expect(answers).toEqual([]);
    // The question still waits: a good answer goes through.
    await client.value("elicitation:answer", {
      elicitationId: request.elicitationId,
      action: "accept",
      content: { name: "Ada" },
    });
    await reply;
    expect(answers).toEqual([{ action: "accept", content: { name: "Ada" } }]);
  });

  it("shows a waiting question again to a tab that says hello", async () => {
    const { client } = await started("session");
    const { reply, request } = await ask(client);
    await client.value("session:hello", {});
    const again = await client.next(
      "elicitation:request",
      (payload) => payload.elicitationId === request.elicitationId,
    );
    expect(again).toEqual(request);
    await client.value("elicitation:answer", {
      elicitationId: request.elicitationId,
      action: "decline",
    });
    await reply;
  });

  it("cancels a question nobody answers, and tells the person", async () => {
    const { client, answers } = await started("session", { elicitationTimeout: 0.2 });
    const { reply, request } = await ask(client);
    expect(await settledOf(client, request.elicitationId)).toMatchObject({
      outcome: "timed-out",
    });
    const notice = await client.next("notice", (payload) => payload.message.includes("asker"));
    expect(notice).toEqual({
      level: "warning",
      message:
        "The question from asker went unanswered and was cancelled; send your request again to be asked again.",
    });
    await reply;
    expect(answers).toEqual([{ action: "cancel", content: undefined }]);
    const late = await client.request("elicitation:answer", {
      elicitationId: request.elicitationId,
      action: "accept",
      content: { name: "Ada" },
    });
    expect(late).toMatchObject({ ok: false, error: { code: "not_found" } });
  });

  it("puts a question from a card's page call to the person, naming the card's chat", async () => {
    const { client, answers } = await started("session");
    const card = await openCard(client, "chat-1", "show-asker");
    await client.value("card:attach", { instanceId: card.instanceId });
    const call = client.value("card:call-tool", {
      instanceId: card.instanceId,
      name: "ask_person",
      arguments: {},
    });
    const request = await client.next("elicitation:request");
    expect(request).toMatchObject({ server: "asker", chatId: "chat-1", message: QUESTION });
    await client.value("elicitation:answer", {
      elicitationId: request.elicitationId,
      action: "accept",
      content: { name: "Lin" },
    });
    expect((await call)["content"]).toEqual([
      { type: "text", text: 'The person said {"action":"accept","content":{"name":"Lin"}}.' },
    ]);
    expect(answers).toEqual([{ action: "accept", content: { name: "Lin" } }]);
  });

  it("withdraws the question when the call that led to it is stopped", async () => {
    const { client } = await started("session");
    const { reply, request } = await ask(client);
    const settled = settledOf(client, request.elicitationId);
    await client.value("turn:stop", { chatId: "chat-1" });
    expect(await settled).toMatchObject({ outcome: "withdrawn" });
    await reply;
  });
});
