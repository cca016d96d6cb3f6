// The host against real provider HTTP APIs, on the wire: OpenAI Responses (`openai:`), OpenAI
// Chat Completions (`openai-chat:`, `openai-compatible:`) and Anthropic Messages (`anthropic:`),
// each served by the test suite's stand-in (@mcp-chat-host/testing), which streams tool arguments
// in pieces, checks names and bodies as the real APIs do, and plays faults. The real AI SDK
// provider adapters run; only the network is local.
import {
  messageRolesOf,
  startProviderStandIn,
  toolNamesOf,
  type Fault,
  type ProviderStandIn,
  type RecordedRequest,
} from "@mcp-chat-host/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { APP_CONTEXT_HEADER } from "../src/context/context-relay";
import { mcpChatHost } from "../src/mcp-chat-host";
import { STOPPED_REPLY_MARK } from "../src/turns/history";
import {
  clockApp,
  exchange,
  greeterApp,
  openCard,
  startHost,
  type TestClient,
  nextChunk,
  type TestHost,
} from "./harness";

interface Provider {
  label: string;
  /** The API the spec talks to. */
  api: RecordedRequest["api"];
  spec(standIn: ProviderStandIn): string;
  env(standIn: ProviderStandIn): Record<string, string>;
}

const providers: Provider[] = [
  {
    label: "openai: (Responses API)",
    api: "responses",
    spec: () => "openai:gpt-stand-in",
    env: (standIn) => ({ OPENAI_API_KEY: standIn.apiKey, OPENAI_BASE_URL: standIn.openaiBaseURL }),
  },
  {
    label: "openai-chat: (Chat Completions)",
    api: "chat-completions",
    spec: () => "openai-chat:gpt-stand-in",
    env: (standIn) => ({ OPENAI_API_KEY: standIn.apiKey, OPENAI_BASE_URL: standIn.openaiBaseURL }),
  },
  {
    label: "openai-compatible: (Chat Completions)",
    api: "chat-completions",
    spec: (standIn) => `openai-compatible:${standIn.openaiBaseURL}#local-model`,
    env: (standIn) => ({ OPENAI_COMPATIBLE_API_KEY: standIn.apiKey }),
  },
  {
    label: "anthropic: (Messages API)",
    api: "messages",
    spec: () => "anthropic:claude-stand-in",
    env: (standIn) => ({
      ANTHROPIC_API_KEY: standIn.apiKey,
      ANTHROPIC_BASE_URL: standIn.anthropicBaseURL,
    }),
  },
];

/** The texts of a request's user messages, as the stand-in read them. */
function userTexts(request: RecordedRequest): string[] {
  return (request.view?.messages ?? [])
    .filter((message) => message.role === "user" && message.text !== "")
    .map((message) => message.text);
}

/** Everything the model was sent in a request, as one string (for "never contains" checks). */
function wireText(request: RecordedRequest): string {
  return JSON.stringify(request.body);
}

/** Says a person-facing error is plain: no JSON, no stack, no object dump, no key. */
function expectPlainError(error: string | undefined, key: string): void {
  expect(error).toBeTypeOf("string");
  expect(error).not.toMatch(/[{}]|\[object|at .+\(.+:\d+|\n/);
  expect(error).not.toContain(key);
  expect(error!.length).toBeLessThan(300);
}

describe.each(providers)("$label on the wire", (provider) => {
  let standIn: ProviderStandIn;
  let host: TestHost | null = null;
  const calls: string[] = [];

  beforeEach(async () => {
    standIn = await startProviderStandIn();
    calls.length = 0;
  });
  afterEach(async () => {
    await host?.close();
    host = null;
    await standIn.close();
  });

  async function start(options: { modelStallTimeout?: number } = {}): Promise<TestClient> {
    // Each report gets its own time, so "the five latest" is exact.
    let clock = Date.now();
    host = await startHost({
      now: () => (clock += 1),
      model: provider.spec(standIn),
      env: provider.env(standIn),
      ...options,
      session(session) {
        mcpChatHost(session.chat(), [
          greeterApp(),
          clockApp("basic-react", "get-time", calls),
          clockApp("basic-vanillajs", "get-time", calls),
          clockApp("files", "files.read", calls),
        ]);
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    return client;
  }

  it("offers valid, unique tool names; both get-time tools reach their own source", async () => {
    const client = await start();
    const first = await exchange(client, "chat-1", "call basic-vanillajs__get-time {}");
    expect(first.reply.status).toBe("complete");
    const second = await exchange(client, "chat-1", "call basic-react__get-time {}");
    expect(second.reply.status).toBe("complete");
    const dotted = await exchange(client, "chat-1", "call files__files_read {}");
    expect(dotted.reply.status).toBe("complete");
    expect(calls).toEqual(["basic-vanillajs/get-time", "basic-react/get-time", "files/files.read"]);
    for (const request of standIn.requests) {
      expect(request.api).toBe(provider.api);
      expect(request.status).toBe(200);
      const names = toolNamesOf(request);
      expect(names.length).toBeGreaterThan(0);
      expect(new Set(names).size).toBe(names.length);
      for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    }
    // The model's text after the tool result reached the person, and usage was read.
    expect(first.text).toContain("It is noon at basic-vanillajs.");
    expect(first.reply.usage?.inputTokens).toBeGreaterThan(0);
    expect(first.reply.usage?.outputTokens).toBeGreaterThan(0);
  });

  it("puts the app context before the person's message in every request of a turn, and never stores it", async () => {
    const client = await start();
    const cards = [];
    for (let index = 1; index <= 6; index += 1) {
      cards.push(await openCard(client, "chat-1", "greet", { name: `n${index}` }));
    }
    for (const [index, card] of cards.entries()) {
      const text = index === 5 ? `report 6 ${"y".repeat(3_000)}` : `report ${index + 1}`;
      await client.value("card:update-context", {
        instanceId: card.instanceId,
        content: [{ type: "text", text }],
      });
    }
    const before = standIn.requests.length;
    const done = await exchange(client, "chat-1", "call basic-react__get-time {}");
    expect(done.reply.status).toBe("complete");
    const turn = standIn.requests.slice(before);
    // The tool call's request and the one after its result.
    expect(turn).toHaveLength(2);
    for (const request of turn) {
      // Anthropic joins consecutive user messages into one; the others keep two messages.
      const all = userTexts(request).join("\n");
      const person = all.lastIndexOf("call basic-react__get-time {}");
      const header = all.indexOf(APP_CONTEXT_HEADER);
      expect(header).toBeGreaterThanOrEqual(0);
      expect(header).toBeLessThan(person);
      // Exactly one context, at most five reports, each at most 2,000 characters.
      expect(all.split(APP_CONTEXT_HEADER)).toHaveLength(2);
      const context = all.slice(header, person);
      const blocks = context.split("<app-context ").slice(1);
      expect(blocks).toHaveLength(5);
      expect(context).not.toContain("report 1\n");
      expect(context).toContain("report 6");
      expect(context).not.toContain("y".repeat(2_000));
    }
    const snapshot = await client.value("conversation:open", {
      conversationId: done.reply.conversationId,
    });
    expect(JSON.stringify(snapshot.messages)).not.toContain(APP_CONTEXT_HEADER);
  });

  const faults: { name: string; fault: Fault; expected: RegExp }[] = [
    { name: "HTTP 401", fault: { kind: "http", status: 401 }, expected: /API key.*_API_KEY/ },
    {
      name: "HTTP 429 with a long retry-after",
      fault: { kind: "http", status: 429, retryAfterSeconds: 600 },
      expected: /rate limiting.*Try again in 10 minutes/,
    },
    { name: "HTTP 500", fault: { kind: "http", status: 500 }, expected: /internal error/ },
    {
      // The real APIs: Anthropic answers 400 invalid_request_error "Your credit balance is too
      // low…", OpenAI 429 insufficient_quota; neither is retried, both name the key's variable.
      name: "an account out of credit",
      fault: {
        kind: "http",
        status: provider.api === "messages" ? 400 : 429,
        reason: "out-of-credit",
      },
      expected:
        /out of credit or over its quota\. Add credit, or set another key in [A-Z_]+_API_KEY\.$/,
    },
    { name: "a socket cut mid-stream", fault: { kind: "cut" }, expected: /broke/ },
    {
      name: "a stream without its finish",
      fault: { kind: "no-finish" },
      expected: /ended the reply before it was finished/,
    },
    { name: "a malformed chunk", fault: { kind: "malformed" }, expected: /could not read/ },
    {
      name: "an in-stream error event",
      fault: { kind: "stream-error" },
      // Anthropic streams an overloaded_error; the OpenAI APIs a server_error.
      expected: provider.api === "messages" ? /is overloaded right now/ : /had an internal error\./,
    },
    { name: "a stall", fault: { kind: "stall" }, expected: /stopped answering/ },
  ];

  it.each(faults)(
    "ends the reply with a plain error on $name, and Retry answers it",
    async ({ fault, expected }) => {
      const client = await start({ modelStallTimeout: 0.5 });
      standIn.injectFault(fault);
      const failed = await exchange(client, "chat-1", "Tell me a long story please");
      expect(failed.reply.status).toBe("error");
      expectPlainError(failed.reply.error, standIn.apiKey);
      expect(failed.reply.error).toMatch(expected);
      expect(failed.reply.retryable).toBeTypeOf("boolean");

      // Retry runs the turn again: no new message of the person's, a new complete reply.
      const before = standIn.requests.length;
      const retried = client.next(
        "message:updated",
        (payload) => payload.message.role === "assistant" && payload.message.status !== "streaming",
      );
      const ack = await client.value("turn:retry", {
        chatId: "chat-1",
        messageId: failed.reply.id,
      });
      const { message } = await retried;
      expect(message.id).toBe(ack.messageId);
      expect(message.status).toBe("complete");
      const request = standIn.requests[before]!;
      // The person's message is sent once, and the failed reply's partial text not at all.
      expect(
        userTexts(request).filter((text) => text === "Tell me a long story please"),
      ).toHaveLength(1);
      const partial = failed.text.trim();
      if (partial.length > 0) expect(wireText(request)).not.toContain(partial);
      const snapshot = await client.value("conversation:open", {
        conversationId: message.conversationId,
      });
      expect(snapshot.messages.map((entry) => [entry.role, entry.status])).toEqual([
        ["user", "complete"],
        ["assistant", "error"],
        ["assistant", "complete"],
      ]);
    },
  );

  it("closes the provider's connection on Stop, and tells the model next turn that it was stopped", async () => {
    const client = await start();
    standIn.injectFault({ kind: "stall", afterEvents: 6 });
    const sent = await client.value("message:send", {
      chatId: "chat-1",
      text: "Write something long",
      clientId: "stop-me",
    });
    expect(sent.duplicate).toBe(false);
    // Wait for some text, then stop.
    await nextChunk(client, "text-delta");
    const [request] = await standIn.waitForRequests(1);
    const ended = client.next(
      "message:updated",
      (payload) => payload.message.role === "assistant" && payload.message.status !== "streaming",
    );
    await client.value("turn:stop", { chatId: "chat-1" });
    const { message } = await ended;
    expect(message.status).toBe("stopped");
    await request!.settled;
    expect(request!.closedByClient).toBe(true);

    const next = await exchange(client, "chat-1", "Go on");
    expect(next.reply.status).toBe("complete");
    const last = standIn.requests.at(-1)!;
    expect(wireText(last)).toContain(STOPPED_REPLY_MARK.slice(1, -1));
    // The mark is a paragraph of its own, not glued to the word the stop cut short.
    expect(wireText(last)).toContain(JSON.stringify(`\n\n${STOPPED_REPLY_MARK}`).slice(1, -1));
    expect(messageRolesOf(last)).toContain("assistant");
  });

  it("sends a message the model never answered once when the person sends it again", async () => {
    const client = await start();
    standIn.injectFault({ kind: "http", status: 500 });
    const failed = await exchange(client, "chat-1", "Same question");
    expect(failed.reply.status).toBe("error");
    const again = await exchange(client, "chat-1", "Same question");
    expect(again.reply.status).toBe("complete");
    const last = standIn.requests.at(-1)!;
    expect(userTexts(last).filter((text) => text === "Same question")).toHaveLength(1);
  });
});

describe("anthropic: prompt caching", () => {
  let standIn: ProviderStandIn;
  let host: TestHost | null = null;
  afterEach(async () => {
    await host?.close();
    host = null;
    await standIn.close();
  });

  it("marks the tools and the stable history, so the next turn reads them from the cache", async () => {
    standIn = await startProviderStandIn();
    host = await startHost({
      model: "anthropic:claude-stand-in",
      env: { ANTHROPIC_API_KEY: standIn.apiKey, ANTHROPIC_BASE_URL: standIn.anthropicBaseURL },
      session(session) {
        mcpChatHost(session.chat({ system: "You are a helpful host." }), greeterApp());
      },
    });
    const client = await host.connect();
    await client.value("session:hello", {});
    await exchange(client, "chat-1", "First question");
    const second = await exchange(client, "chat-1", "Second question");
    const third = await exchange(client, "chat-1", "Third question");
    const request = standIn.requests.at(-1)!;
    const body = request.body as {
      tools: { cache_control?: unknown }[];
      messages: { content: { cache_control?: unknown }[] | string }[];
    };
    expect(body.tools.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
    const marked = body.messages.filter(
      (message) =>
        Array.isArray(message.content) &&
        message.content.some((part) => part.cache_control !== undefined),
    );
    expect(marked.length).toBeGreaterThan(0);
    // The history before the newest message was cached by the turn before.
    expect(second.reply.usage?.cachedInputTokens ?? 0).toBeGreaterThan(0);
    expect(third.reply.usage?.cachedInputTokens ?? 0).toBeGreaterThan(
      second.reply.usage?.cachedInputTokens ?? 0,
    );
  });
});
