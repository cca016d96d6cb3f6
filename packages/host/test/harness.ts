// Test harness: a real host server on 127.0.0.1 port 0, signed in through its one-time URL, and
// real socket.io clients that speak the wire contract. Used by the integration tests of this package.
import type {
  CardDescriptor,
  ChatMessage,
  ClientPayload,
  ReplyChunk,
  ReplyChunkType,
  ServerEventName,
  ServerEvents,
} from "@mcp-chat-host/protocol";
import type { IncomingMessage } from "node:http";
import { z } from "zod";
import { createHostServer } from "../src/create-host-server";
import type { HostServer, HostServerOptions } from "../src/host-server-options";
import { McpApp } from "../src/sources/mcp-app";
import { bindingOf, memoryLogger, signInThrough } from "../src/testing/http-layer-support";
import { connectSocketTestClient, type SocketTestClient } from "../src/testing";

/** People told apart by the `x-test-user` header an auth function reads: its value is their id and name. */
export const headerUsers = {
  mode: "function" as const,
  authenticate(request: IncomingMessage) {
    const id = request.headers["x-test-user"];
    return typeof id === "string" ? { id, name: id } : null;
  },
};

/** A signed-in test client of a host (the shared client of `@mcp-chat-host/host/testing`). */
export type TestClient = SocketTestClient;

/** A running host for a test. */
export interface TestHost {
  server: HostServer;
  origin: string;
  port: number;
  cookie: string;
  logs: ReturnType<typeof memoryLogger>["lines"];
  /** Connects a signed-in client; `headers` are added to the handshake (auth functions read them). */
  connect(options?: {
    tabId?: string;
    cookie?: string;
    origin?: string;
    headers?: Record<string, string>;
    /** The session binding to send (default: the one the cookie's sign-in gave; null: none). */
    binding?: string | null;
  }): Promise<TestClient>;
  close(): Promise<void>;
}

/** Starts a host with an in-memory store and the offline model unless told otherwise. */
export async function startHost(options: HostServerOptions = {}): Promise<TestHost> {
  const { logger, lines } = memoryLogger();
  const server = createHostServer({
    store: ":memory:",
    model: "offline",
    logger,
    sessionGraceMs: 50,
    ...options,
  });
  const { port, url } = await server.listen({ port: 0, host: "127.0.0.1" });
  const clients: TestClient[] = [];
  const cookie = await signInCookie(server, port);
  return {
    server,
    origin: url,
    port,
    cookie,
    logs: lines,
    async connect(connectOptions = {}) {
      const client = await connectTestClient(url, {
        cookie: connectOptions.cookie ?? cookie,
        origin: connectOptions.origin ?? url,
        tabId: connectOptions.tabId ?? "tab-1",
        ...(connectOptions.headers === undefined ? {} : { headers: connectOptions.headers }),
        ...(connectOptions.binding === undefined ? {} : { binding: connectOptions.binding }),
      });
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients) client.close();
      await server.close();
    },
  };
}

async function signInCookie(server: HostServer, port: number): Promise<string> {
  const signIn = server.urls.signIn;
  if (signIn === null) return "";
  return (await signInThrough(port, signIn)).cookie;
}

/**
 * Connects a socket.io client with the given cookie and Origin; rejects on `connect_error`. Like
 * the host page, it sends the session binding its sign-in gave with the cookie (`binding: null`
 * sends none, as a program that only copied the cookie would).
 */
export function connectTestClient(
  origin: string,
  options: {
    cookie: string;
    origin: string;
    tabId: string;
    headers?: Record<string, string>;
    binding?: string | null;
  },
): Promise<TestClient> {
  const binding = options.binding === undefined ? bindingOf(options.cookie) : options.binding;
  return connectSocketTestClient(origin, {
    tabId: options.tabId,
    cookie: options.cookie,
    origin: options.origin,
    headers: options.headers,
    binding: binding ?? undefined,
  });
}

/** An app with one model tool (no view) that records which app answered. */
export function clockApp(appName: string, toolName: string, calls: string[]): McpApp {
  return new McpApp({
    name: appName,
    html: "<!doctype html><p>Clock</p>",
    tools: [
      {
        name: toolName,
        description: `Tells the time (${appName}).`,
        view: false,
        annotations: { readOnlyHint: true, openWorldHint: false },
        handler: () => {
          calls.push(`${appName}/${toolName}`);
          return { content: [{ type: "text", text: `It is noon at ${appName}.` }] };
        },
      },
    ],
  });
}

/** A small in-process app for tests: a greeter with a view, an app-only tool and a model-only tool. */
export function greeterApp(counter: { calls: string[] } = { calls: [] }): McpApp {
  return new McpApp({
    name: "greeter",
    title: "Greeter",
    html: "<!doctype html><html><body><p>Greeter</p></body></html>",
    tools: [
      {
        name: "greet",
        title: "Greet",
        description: "Greets someone and shows the greeter.",
        inputSchema: { name: z.string().optional() },
        annotations: { readOnlyHint: true, openWorldHint: false },
        handler: (args) => {
          counter.calls.push(`greet:${String(args["name"] ?? "")}`);
          return { content: [{ type: "text", text: `Hello, ${String(args["name"] ?? "you")}!` }] };
        },
      },
      {
        name: "set-name",
        description: "Sets the name (from the page).",
        visibility: ["app"],
        view: false,
        inputSchema: { name: z.string() },
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
        handler: (args) => {
          counter.calls.push(`set-name:${String(args["name"])}`);
          return { content: [{ type: "text", text: `Name set to ${String(args["name"])}.` }] };
        },
      },
      {
        name: "secret",
        description: "Model-only tool.",
        visibility: ["model"],
        view: false,
        handler: () => {
          counter.calls.push("secret");
          return { content: [{ type: "text", text: "secret" }] };
        },
      },
    ],
  });
}

/** A finished reply and the person's message that asked for it. */
export interface Exchange {
  messageId: string;
  reply: ChatMessage;
  /** The reply's text parts, joined. */
  text: string;
}

let clientIds = 0;

/**
 * Sends a person's message to a chat and waits for the reply to end (complete, stopped or
 * failed). Each exchange of a chat must be awaited before the next, so replies aren't mixed up.
 */
export async function exchange(
  client: TestClient,
  chatId: string,
  text: string,
  clientId = `message-${(clientIds += 1)}`,
  extra: Pick<ClientPayload<"message:send">, "attachments"> = {},
): Promise<Exchange> {
  const sent = await client.value("message:send", { chatId, text, clientId, ...extra });
  const { message } = await client.next(
    "message:updated",
    (payload) =>
      payload.message.role === "assistant" &&
      payload.message.chatId === chatId &&
      payload.message.status !== "streaming",
  );
  return { messageId: sent.messageId, reply: message, text: replyText(message) };
}

/** The text parts of a message, joined. */
export function replyText(message: ChatMessage): string {
  return message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/**
 * Opens a card through a whole turn (`/call <tool> <arguments>` to the offline model) and returns
 * its descriptor, with the opening call's result, once the reply has ended.
 */
export async function openCard(
  client: TestClient,
  chatId: string,
  tool: string,
  args: Record<string, unknown> = {},
): Promise<CardDescriptor> {
  const done = await exchange(client, chatId, `/call ${tool} ${JSON.stringify(args)}`);
  const toolPart = done.reply.parts.find(
    (part) => part.type === "tool" && part.instanceId !== undefined,
  );
  if (toolPart?.type !== "tool") throw new Error(`The reply opened no card: ${done.text}`);
  const opened = await nextChunk(
    client,
    "data-card",
    (chunk) => chunk.card.instanceId === toolPart.instanceId,
  );
  // The card opens before its tool runs; its result follows in the part's output.
  const output = await nextChunk(
    client,
    "tool-output-available",
    (chunk) => chunk.toolCallId === toolPart.toolCallId,
  );
  return { ...opened.card, result: output.cardResult ?? null };
}

/** One verb of a reply's chunks. */
export type ChunkOf<T extends ReplyChunkType> = Extract<ReplyChunk, { type: T }>;

/**
 * Waits for a reply's chunk of one verb (`message:chunk`) that matches: one received already
 * (not yet taken), else the next one.
 */
export async function nextChunk<T extends ReplyChunkType>(
  client: TestClient,
  type: T,
  match: (chunk: ChunkOf<T>) => boolean = () => true,
  timeoutMs?: number,
): Promise<ChunkOf<T>> {
  const { chunk } = await client.next(
    "message:chunk",
    (payload) => payload.chunk.type === type && match(payload.chunk as ChunkOf<T>),
    timeoutMs,
  );
  return chunk as ChunkOf<T>;
}

/** The text deltas of replies received so far (not taken by `next`), each with its reply's id. */
export function receivedTextDeltas(
  client: TestClient,
): { messageId: string; delta: string; offset: number }[] {
  return receivedOf(client, "message:chunk").flatMap(({ messageId, chunk }) =>
    chunk.type === "text-delta" ? [{ messageId, delta: chunk.delta, offset: chunk.offset }] : [],
  );
}

/** Records the verbs of every reply chunk a client receives from now on, in order. */
export function recordChunkTypes(client: TestClient): ReplyChunkType[] {
  const types: ReplyChunkType[] = [];
  client.socket.on("message:chunk", (payload: ServerEvents["message:chunk"]) =>
    types.push(payload.chunk.type),
  );
  return types;
}

/** Events of one name received so far (not consumed by `next`). */
export function receivedOf<E extends ServerEventName>(
  client: TestClient,
  event: E,
): ServerEvents[E][] {
  return client.received
    .filter((entry) => entry.event === event)
    .map((entry) => entry.payload as ServerEvents[E]);
}

/** A promise with its resolve function, for waiting on events that a test's app code reports. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** A small app whose page counts how often the host reads it, and its `bump` calls from the page. */
export function countingApp(counter: { calls: string[]; reads: number }): McpApp {
  return new McpApp({
    name: "counter",
    title: "Counter",
    html: () => {
      counter.reads += 1;
      return "<!doctype html><html><body><p>Counter</p></body></html>";
    },
    tools: [
      {
        name: "show",
        description: "Shows the counter.",
        annotations: { readOnlyHint: true },
        handler: () => ({ content: [{ type: "text", text: "Shown." }] }),
      },
      {
        name: "bump",
        description: "Bumps the counter (from the page).",
        visibility: ["app"],
        view: false,
        annotations: { readOnlyHint: true },
        handler: () => {
          counter.calls.push("bump");
          return { content: [{ type: "text", text: "Bumped." }] };
        },
      },
    ],
  });
}
