// Two (or more) real host nodes in one process for the cluster tests: each a full host server
// on 127.0.0.1, sharing one Postgres database, one Redis and one session secret, as nodes behind
// a balancer would. The model is a real AI SDK model whose stream the test writes by hand.
import type {
  LanguageModelV3,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import type { ChatMessage, ServerEvents } from "@mcp-chat-host/protocol";
import { createHostServer } from "../src/create-host-server";
import type { HostServer, HostServerOptions } from "../src/host-server-options";
import { bindingOf, memoryLogger, signInThrough } from "../src/testing/http-layer-support";
import { connectSocketTestClient, type SocketTestClient } from "../src/testing";

/** The secret every node signs cookies with. */
export const sharedSecret = "cluster-test-secret-of-at-least-32-characters";

const NO_USAGE: LanguageModelV3Usage = {
  inputTokens: {
    total: undefined,
    noCache: undefined,
    cacheRead: undefined,
    cacheWrite: undefined,
  },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

/** A model whose replies the test writes: each call opens a stream the test feeds and ends. */
export interface HandWrittenModel {
  model: LanguageModelV3;
  /** Resolves with the writer of the next reply the host asks for. */
  nextReply(): Promise<ReplyWriter>;
}

/** Writes one reply's stream. */
export interface ReplyWriter {
  write(text: string): void;
  finish(): void;
  /** Ends this step with a call of a tool (the host runs it and asks for the next step). */
  callTool(toolName: string, input: Record<string, unknown>): void;
}

/** A model whose streams are written by the test. */
export function handWrittenModel(): HandWrittenModel {
  const waiting: ((writer: ReplyWriter) => void)[] = [];
  const ready: ReplyWriter[] = [];
  const model: LanguageModelV3 = {
    specificationVersion: "v3",
    provider: "hand-written",
    modelId: "hand-written",
    supportedUrls: {},
    doGenerate() {
      return Promise.reject(new Error("The hand-written model only streams."));
    },
    doStream(callOptions) {
      let controller!: ReadableStreamDefaultController<LanguageModelV3StreamPart>;
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        start(streamController) {
          controller = streamController;
          controller.enqueue({ type: "stream-start", warnings: [] });
          controller.enqueue({ type: "text-start", id: "text" });
        },
      });
      let open = true;
      callOptions.abortSignal?.addEventListener("abort", () => {
        if (!open) return;
        open = false;
        controller.error(new DOMException("Aborted", "AbortError"));
      });
      let calls = 0;
      const writer: ReplyWriter = {
        callTool(toolName, input) {
          if (!open) return;
          open = false;
          calls += 1;
          controller.enqueue({ type: "text-end", id: "text" });
          controller.enqueue({
            type: "tool-call",
            toolCallId: `hand-call-${calls}-${Math.random().toString(36).slice(2, 8)}`,
            toolName,
            input: JSON.stringify(input),
          });
          controller.enqueue({
            type: "finish",
            finishReason: { unified: "tool-calls", raw: undefined },
            usage: NO_USAGE,
          });
          controller.close();
        },
        write(text) {
          if (open) controller.enqueue({ type: "text-delta", id: "text", delta: text });
        },
        finish() {
          if (!open) return;
          open = false;
          controller.enqueue({ type: "text-end", id: "text" });
          controller.enqueue({
            type: "finish",
            finishReason: { unified: "stop", raw: undefined },
            usage: NO_USAGE,
          });
          controller.close();
        },
      };
      const taker = waiting.shift();
      if (taker) taker(writer);
      else ready.push(writer);
      return Promise.resolve({ stream });
    },
  };
  return {
    model,
    nextReply() {
      const writer = ready.shift();
      if (writer) return Promise.resolve(writer);
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
}

/** One running node. */
export interface TestNode {
  server: HostServer;
  url: string;
  port: number;
  writer: HandWrittenModel;
  logs: ReturnType<typeof memoryLogger>["lines"];
  /** Connects a tab with a cookie (issued by any node). */
  connect(cookie: string, tabId: string): Promise<SocketTestClient>;
  close(): Promise<void>;
}

/** Starts a node on the shared database and Redis. */
export async function startNode(
  nodeId: string,
  shared: { databaseUrl: string; redisUrl: string },
  options: Partial<HostServerOptions> = {},
): Promise<TestNode> {
  const { logger, lines } = memoryLogger();
  const writer = handWrittenModel();
  const server = createHostServer({
    store: shared.databaseUrl,
    redisUrl: shared.redisUrl,
    nodeId,
    model: writer.model,
    logger,
    sessionGraceMs: 50,
    sessionSecret: sharedSecret,
    env: {},
    ...options,
  });
  const { port, url } = await server.listen({ port: 0, host: "127.0.0.1" });
  const clients: SocketTestClient[] = [];
  return {
    server,
    url,
    port,
    writer,
    logs: lines,
    async connect(cookie, tabId) {
      const client = await connectSocketTestClient(url, {
        tabId,
        cookie,
        origin: url,
        binding: bindingOf(cookie),
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

/** Signs in through a node's one-time URL; the cookie works on every node. */
export async function signInAt(node: TestNode): Promise<string> {
  const url = await node.server.mintSignInUrl();
  return (await signInThrough(node.port, url)).cookie;
}

/**
 * Follows one reply's text as the web app does: a snapshot's text first, then each delta placed
 * by its offset (what it already has is skipped; a delta past the end is a gap).
 */
export class ReplyText {
  text: string;
  gaps = 0;
  duplicates = 0;

  constructor(message: ChatMessage | undefined) {
    this.text = (message?.parts ?? [])
      .map((part) => (part.type === "text" ? part.text : ""))
      .join("");
  }

  /** Applies a reply's chunk; only its text deltas change the text. */
  apply(event: ServerEvents["message:chunk"]): void {
    const chunk = event.chunk;
    if (chunk.type !== "text-delta") return;
    this.#delta(chunk);
  }

  #delta(event: { delta: string; offset: number }): void {
    const offset = event.offset;
    if (offset > this.text.length) {
      this.gaps += 1;
      return;
    }
    const end = offset + event.delta.length;
    if (end <= this.text.length) {
      this.duplicates += 1;
      return;
    }
    this.text += event.delta.slice(this.text.length - offset);
  }
}
