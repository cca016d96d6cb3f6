// Test support for the model layer: a real MCP server and client joined over the SDK's in-memory
// transport, and the HostTools a chat host would build from the client. Used only by tests.
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { z } from "zod";
import type { HostTool } from "../model/host-tool";
import { toolOutcomeFromResult } from "../model/tool-outcome";
import type { TurnEvent } from "../model/turn-events";

/** A server and client pair, the tools as the model gets them, and what the server saw. */
export interface TestToolServer {
  client: Client;
  tools: HostTool[];
  /** Names of the tools whose handler ran, in call order. */
  calls: string[];
  /** Resolves when the `slow` tool's handler starts. */
  slowStarted: Promise<void>;
  /** Resolves when the `slow` tool's handler sees its request cancelled. */
  slowCancelled: Promise<void>;
  close: () => Promise<void>;
}

/** The fixed answer of the `get-time` tool. */
export const FIXED_TIME = "2025-01-02T03:04:05.000Z";

/**
 * Starts an in-process MCP server with tools shaped for the model tests: `get-time` (read-only,
 * closed world, title "Server Time"), `add` (required a and b, structured content), `echo`
 * (required text), `delete-note` (destructive), `fetch-page` (no annotations, so open world),
 * `fail` (an error result) and `slow` (reports progress, then waits until cancelled).
 *
 * @returns the connected pair and the HostTools built from the server's listing.
 */
export async function startTestToolServer(): Promise<TestToolServer> {
  const server = new McpServer({ name: "test-tools", version: "1.0.0" });
  const calls: string[] = [];
  const readOnly = { readOnlyHint: true, openWorldHint: false };
  let markSlowStarted = (): void => {};
  let markSlowCancelled = (): void => {};
  const slowStarted = new Promise<void>((resolve) => (markSlowStarted = resolve));
  const slowCancelled = new Promise<void>((resolve) => (markSlowCancelled = resolve));

  server.registerTool(
    "get-time",
    { title: "Server Time", description: "The server's time.", annotations: readOnly },
    () => {
      calls.push("get-time");
      return { content: [{ type: "text", text: FIXED_TIME }] };
    },
  );
  server.registerTool(
    "add",
    {
      description: "Adds two numbers.",
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      annotations: readOnly,
    },
    ({ a, b }) => {
      calls.push("add");
      return {
        content: [{ type: "text", text: String(a + b) }],
        structuredContent: { sum: a + b },
      };
    },
  );
  server.registerTool(
    "echo",
    {
      description: "Repeats a text.",
      inputSchema: z.object({ text: z.string() }),
      annotations: readOnly,
    },
    ({ text }) => {
      calls.push("echo");
      return { content: [{ type: "text", text }] };
    },
  );
  server.registerTool(
    "delete-note",
    {
      description: "Deletes a note.",
      annotations: { destructiveHint: true, openWorldHint: false },
    },
    () => {
      calls.push("delete-note");
      return { content: [{ type: "text", text: "deleted" }] };
    },
  );
  server.registerTool("fetch-page", { description: "Fetches a web page." }, () => {
    calls.push("fetch-page");
    return { content: [{ type: "text", text: "<html></html>" }] };
  });
  server.registerTool("fail", { description: "Always fails.", annotations: readOnly }, () => {
    calls.push("fail");
    return { content: [{ type: "text", text: "Disk is full" }], isError: true };
  });
  server.registerTool(
    "slow",
    { description: "Works until cancelled.", annotations: readOnly },
    async (context) => {
      calls.push("slow");
      const token = context.mcpReq._meta?.progressToken;
      if (token !== undefined) {
        await context.mcpReq.notify({
          method: "notifications/progress",
          params: { progressToken: token, progress: 1, total: 3, message: "warming up" },
        });
      }
      markSlowStarted();
      const signal = context.mcpReq.signal;
      await new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        signal.addEventListener("abort", () => resolve(), { once: true });
      });
      markSlowCancelled();
      return { content: [{ type: "text", text: "stopped" }] };
    },
  );

  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "model-tests", version: "1.0.0" });
  await client.connect(clientTransport);
  const tools = await hostToolsOf(client, "test-tools");
  return {
    client,
    tools,
    calls,
    slowStarted,
    slowCancelled,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/**
 * Builds HostTools from a client's tool listing, calling through the client (with progress and
 * cancellation), as a chat host does.
 *
 * @returns one HostTool per listed tool, in listing order.
 */
async function hostToolsOf(client: Client, source: string): Promise<HostTool[]> {
  const { tools } = await client.listTools();
  return tools.map((listed) => {
    const title = listed.title ?? listed.annotations?.title;
    return {
      name: listed.name,
      ...(title === undefined ? {} : { title }),
      description: listed.description ?? title ?? "",
      inputSchema: listed.inputSchema,
      ...(listed.annotations === undefined ? {} : { annotations: listed.annotations }),
      source,
      execute: async (args, context) => {
        const result = await client.callTool(
          { name: listed.name, arguments: args },
          { signal: context.signal, onprogress: (progress) => context.onProgress(progress) },
        );
        return toolOutcomeFromResult(result);
      },
    };
  });
}

/** Stream parts of a mock model step that says `text`. */
export function textStep(text: string): LanguageModelV3StreamPart[] {
  return [
    { type: "text-start", id: "text" },
    { type: "text-delta", id: "text", delta: text },
    { type: "text-end", id: "text" },
    { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage: noUsage() },
  ];
}

/** Stream parts of a mock model step that calls tools, each `[toolCallId, toolName, input]`. */
export function toolCallStep(
  ...calls: Array<[toolCallId: string, toolName: string, input: unknown]>
): LanguageModelV3StreamPart[] {
  return [
    ...calls.map(([toolCallId, toolName, input]) => ({
      type: "tool-call" as const,
      toolCallId,
      toolName,
      input: JSON.stringify(input),
    })),
    { type: "finish", finishReason: { unified: "tool-calls", raw: undefined }, usage: noUsage() },
  ];
}

/** The tool results in the last message of a recorded model call, as `[toolName, output]`. */
export function lastToolResults(call: LanguageModelV3CallOptions | undefined): unknown[] {
  const last = call?.prompt.at(-1);
  if (last?.role !== "tool") return [];
  return last.content.flatMap((part) =>
    part.type === "tool-result" ? [[part.toolName, part.output]] : [],
  );
}

function noUsage(): Extract<LanguageModelV3StreamPart, { type: "finish" }>["usage"] {
  return {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };
}

/** Records a turn's events and lets a test wait for one without polling. */
export interface EventRecorder {
  events: TurnEvent[];
  listener: (event: TurnEvent) => void;
  /** Resolves with the first event of the type (at once if it already came). */
  waitFor: (type: TurnEvent["type"]) => Promise<TurnEvent>;
}

/**
 * Creates an event recorder; waits are bounded by the test's timeout.
 *
 * @returns the recorder.
 */
export function recordEvents(): EventRecorder {
  const events: TurnEvent[] = [];
  const waiters: Array<{ type: TurnEvent["type"]; resolve: (event: TurnEvent) => void }> = [];
  return {
    events,
    listener: (event) => {
      events.push(event);
      for (const waiter of waiters.filter((candidate) => candidate.type === event.type)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    },
    waitFor: (type) => {
      const found = events.find((event) => event.type === type);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ type, resolve }));
    },
  };
}
