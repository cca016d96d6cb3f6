// A server's prompts and resources through a real host and socket: a real MCP server (the SDK's,
// over Streamable HTTP) offers a prompt with arguments and text and binary resources; the
// composer lists and gets the prompt, lists the resources, and a message with attachments is
// stored with them and given to the model (the offline model, watched through the AI SDK's mock).
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { McpServer } from "@modelcontextprotocol/server";
import { MockLanguageModelV3 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { mcpChatHost } from "../src/mcp-chat-host";
import { createOfflineModel } from "../src/model/offline-model";
import { serveMcpOverHttp, type HttpMcpServer } from "../src/sources/fixtures/serve-mcp-over-http";
import { mcpClient } from "../src/sources/mcp-client";
import { clockApp, exchange, greeterApp, startHost, type TestHost } from "./harness";

/** A PNG's first bytes, base64: enough to be a blob of a known type. */
const PNG_BLOB = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString("base64");

let host: TestHost | null = null;
let served: HttpMcpServer | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
  await served?.close();
  served = null;
});

/** A real MCP server with a prompt that takes arguments and four resources (one that fails). */
function libraryServer(): McpServer {
  const mcp = new McpServer({ name: "library", version: "1.0.0" });
  mcp.registerPrompt(
    "summarize",
    {
      title: "Summarize",
      description: "Summarizes a topic.",
      argsSchema: z.object({ topic: z.string(), style: z.string().optional() }),
    },
    ({ topic, style }) => ({
      messages: [
        {
          role: "user" as const,
          content: {
            type: "text" as const,
            text: `Summarize ${topic}${style ? ` (${style})` : ""}.`,
          },
        },
        {
          role: "user" as const,
          content: {
            type: "resource" as const,
            resource: { uri: "notes://readme", mimeType: "text/plain", text: "The readme." },
          },
        },
        {
          role: "user" as const,
          content: { type: "image" as const, data: PNG_BLOB, mimeType: "image/png" },
        },
      ],
    }),
  );
  const text = (uri: string, body: string) => ({
    contents: [{ uri, mimeType: "text/plain", text: body }],
  });
  mcp.registerResource("readme", "notes://readme", { mimeType: "text/plain" }, () =>
    text("notes://readme", "Read me first."),
  );
  mcp.registerResource("logo", "notes://logo.png", { mimeType: "image/png" }, () => ({
    contents: [{ uri: "notes://logo.png", mimeType: "image/png", blob: PNG_BLOB }],
  }));
  mcp.registerResource("big", "notes://big", { mimeType: "text/plain" }, () =>
    text("notes://big", "x".repeat(60_000)),
  );
  mcp.registerResource("broken", "notes://broken", {}, () => {
    throw new Error("disk on fire");
  });
  mcp.registerResource("page", "ui://library/page", { mimeType: "text/html" }, () =>
    text("ui://library/page", "<p>page</p>"),
  );
  return mcp;
}

/** The offline model behind the AI SDK's mock, so each request the server makes is recorded. */
function watchedModel(): MockLanguageModelV3 {
  const offline = createOfflineModel();
  return new MockLanguageModelV3({ doStream: (options) => offline.doStream(options) });
}

/** A host whose chat-1 uses the library server and whose chat-2 uses a clock app. */
async function startLibraryHost(model?: MockLanguageModelV3) {
  served = await serveMcpOverHttp(() => libraryServer());
  const url = served.url;
  host = await startHost({
    ...(model === undefined ? {} : { model }),
    session(session) {
      mcpChatHost(session.chat(), [mcpClient(url, { name: "library" }), greeterApp()]);
      mcpChatHost(session.chat(), clockApp("clock", "get-time", []));
    },
  });
  const client = await host.connect();
  await client.value("session:hello", {});
  return client;
}

function lastUserContent(prompt: LanguageModelV3Prompt) {
  const user = prompt.filter((message) => message.role === "user").at(-1);
  return user?.content;
}

describe("a server's prompts in the composer", () => {
  it("lists the chat's prompts, and an app without prompts adds none", async () => {
    const client = await startLibraryHost();
    const prompts = await client.value("prompts:list", { chatId: "chat-1" });
    expect(prompts).toEqual([
      {
        source: "library",
        name: "summarize",
        title: "Summarize",
        description: "Summarizes a topic.",
        arguments: [
          { name: "topic", required: true },
          { name: "style", required: false },
        ],
      },
    ]);
    expect(await client.value("prompts:list", { chatId: "chat-2" })).toEqual([]);
  });

  it("gets a prompt with its arguments as the composer's text", async () => {
    const client = await startLibraryHost();
    const { text } = await client.value("prompt:get", {
      chatId: "chat-1",
      source: "library",
      name: "summarize",
      arguments: { topic: "MCP", style: "short" },
    });
    expect(text).toBe("Summarize MCP (short).\n\nThe readme.\n\n[Image (image/png)]");
  });

  it("says which required argument is missing, and refuses another chat's server", async () => {
    const client = await startLibraryHost();
    const missing = await client.request("prompt:get", {
      chatId: "chat-1",
      source: "library",
      name: "summarize",
      arguments: { style: "short" },
    });
    expect(missing).toEqual({
      ok: false,
      error: {
        code: "bad_request",
        message: "The prompt Summarize needs a value for topic; fill it in and try again.",
        retryable: false,
      },
    });
    const elsewhere = await client.request("prompt:get", {
      chatId: "chat-2",
      source: "library",
      name: "summarize",
      arguments: { topic: "MCP" },
    });
    expect(elsewhere).toMatchObject({
      ok: false,
      error: {
        code: "not_found",
        message: "This chat does not use a server named library; choose a prompt from the list.",
      },
    });
  });
});

describe("a server's resources attached to a message", () => {
  it("lists the chat's resources without the app pages", async () => {
    const client = await startLibraryHost();
    const resources = await client.value("resources:list", { chatId: "chat-1" });
    expect(resources.map((resource) => `${resource.source} ${resource.uri}`)).toEqual([
      "library notes://readme",
      "library notes://logo.png",
      "library notes://big",
      "library notes://broken",
    ]);
    expect(resources[1]).toEqual({
      source: "library",
      uri: "notes://logo.png",
      name: "logo",
      mimeType: "image/png",
    });
  });

  it("stores the attachments with the message and gives them to the model as its content", async () => {
    const model = watchedModel();
    const client = await startLibraryHost(model);
    const created = client.next("message:created", (payload) => payload.message.role === "user");
    const done = await exchange(client, "chat-1", "What do these say?", "attach-1", {
      attachments: [
        { source: "library", uri: "notes://readme" },
        { source: "library", uri: "notes://logo.png" },
      ],
    });
    expect(done.reply.status).toBe("complete");
    const { message } = await created;
    expect(message.parts).toEqual([
      { type: "text", text: "What do these say?" },
      {
        type: "resource",
        source: "library",
        uri: "notes://readme",
        name: "readme",
        mimeType: "text/plain",
        text: "Read me first.",
      },
      {
        type: "resource",
        source: "library",
        uri: "notes://logo.png",
        name: "logo",
        mimeType: "image/png",
        blob: PNG_BLOB,
      },
    ]);
    const prompt = model.doStreamCalls.at(-1)!.prompt;
    const content = lastUserContent(prompt);
    expect(content).toEqual([
      { type: "text", text: "What do these say?" },
      {
        type: "text",
        text: '[The person attached the resource notes://readme ("readme") of the server library, text/plain.]\n\nRead me first.',
      },
      {
        type: "text",
        text: '[The person attached the resource notes://logo.png ("logo") of the server library, image/png.]',
      },
      expect.objectContaining({ type: "file", mediaType: "image/png", filename: "logo.png" }),
    ]);

    // The next turn's history carries the attachments too (read from the store).
    await exchange(client, "chat-1", "And now?");
    const history = model.doStreamCalls.at(-1)!.prompt;
    expect(JSON.stringify(history)).toContain("Read me first.");
    const conversation = await client.value("conversation:list", {});
    const stored = await client.value("conversation:messages", {
      conversationId: conversation[0]!.id,
      before: 1_000,
    });
    expect(stored.messages[0]!.parts).toHaveLength(3);
  });

  it("refuses a resource of another chat's server, an app page, an unreadable one and too much", async () => {
    const client = await startLibraryHost();
    const send = (
      chatId: string,
      attachments: { source: string; uri: string }[],
      clientId: string,
    ) => client.request("message:send", { chatId, text: "Look.", clientId, attachments });

    const otherChat = await send("chat-2", [{ source: "library", uri: "notes://readme" }], "a");
    expect(otherChat).toMatchObject({
      ok: false,
      error: {
        code: "refused",
        message:
          "notes://readme belongs to library, which this chat does not use; attach resources of this chat's servers only.",
      },
    });
    const page = await send("chat-1", [{ source: "greeter", uri: "ui://greeter" }], "b");
    expect(page).toMatchObject({
      ok: false,
      error: {
        code: "refused",
        message: "ui://greeter is an app's page, not something to attach; remove it.",
      },
    });
    const broken = await send("chat-1", [{ source: "library", uri: "notes://broken" }], "c");
    expect(broken).toMatchObject({
      ok: false,
      error: {
        code: "unavailable",
        message: "Couldn't read notes://broken from library; remove it or try again.",
      },
    });
    const big = { source: "library", uri: "notes://big" };
    const tooLarge = await send("chat-1", [big, big], "d");
    expect(tooLarge).toMatchObject({
      ok: false,
      error: {
        code: "too_large",
        message:
          "The attached resources are too large together (at most 100,000 characters); attach fewer or smaller ones.",
      },
    });
    // Nothing refused was stored; one big resource alone fits.
    expect(await client.value("conversation:list", {})).toEqual([]);
    const fits = await send("chat-1", [big], "e");
    expect(fits).toMatchObject({ ok: true });
  });
});
