// OpenTelemetry traces of the published program: with OTEL_EXPORTER_OTLP_ENDPOINT
// pointing at a collector stand-in, one person's message that makes the offline model call the
// Notes example's `open-notes` exports one trace: the socket event `message:send`, under it the
// turn, under the turn the model requests and the tool call, and the store writes under each of
// them; the collector gets the operator's headers; no attribute holds the message or a secret.
// Without an endpoint the program loads none of the SDK or the exporter. No browser is needed:
// a socket.io client speaks the wire contract as the web app does.
import { readFileSync, rmSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "@playwright/test";
import type { SocketTestClient } from "@mcp-chat-host/host/testing";
import {
  startTraceCollector,
  type CollectedSpan,
  type TraceCollector,
} from "@mcp-chat-host/testing";
import { signedInClient, startProgram, type StartedProgram } from "../support/traced-program";

const cleanups: Array<() => Promise<void> | void> = [];

test.afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A secret the program is given, which must never reach a span. */
const apiKey = "sk-ant-api03-traces-test-not-a-real-key";
const collectorToken = "collector-token-4b1d";

/** Every attribute value of a span (and its resource), as text. */
function attributeTexts(span: CollectedSpan): string[] {
  return [...Object.values(span.attributes), ...Object.values(span.resource)].map((value) =>
    JSON.stringify(value),
  );
}

/** Sends one message and waits until its reply is stored complete. */
async function sendAndWait(client: SocketTestClient, text: string): Promise<void> {
  await client.value("session:hello", {});
  await client.value("message:send", { chatId: "chat-1", text, clientId: "traced-1" });
  await client.next(
    "message:updated",
    (payload) => payload.message.role === "assistant" && payload.message.status !== "streaming",
    30_000,
  );
}

test.describe("traces of the published program", () => {
  test("a turn that calls a tool is one trace: message:send → turn → model requests, tool call, store writes", async () => {
    test.setTimeout(120_000);
    const collector: TraceCollector = await startTraceCollector();
    cleanups.push(() => collector.close());
    const program: StartedProgram = await startProgram({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${collectorToken}`,
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=traces-test",
      OTEL_EXPORTER_OTLP_COMPRESSION: "gzip",
      NODE_ID: "traced-node-1",
      ANTHROPIC_API_KEY: apiKey,
    });
    cleanups.push(() => program.stop());
    expect(program.output()).toContain("traces are exported over OTLP/HTTP");
    expect(program.output()).not.toContain(collectorToken);
    const client = await signedInClient(program.signIn);
    cleanups.push(() => client.close());
    const text = "/call open-notes {}";
    await sendAndWait(client, text);
    client.close();
    // The drain exports what is still queued before the process exits.
    await program.stop();
    expect(program.exitCode()).toBe(0);

    const spans = collector.spans;
    const send = spans.find((span) => span.name === "message:send");
    expect(send, spans.map((span) => span.name).join(", ")).toBeDefined();
    if (send === undefined) return;
    expect(send.kind).toBe(2); // server
    expect(send.attributes["mcp_chat_host.socket.event"]).toBe("message:send");
    const trace = spans.filter((span) => span.traceId === send.traceId);
    const childrenOf = (parent: CollectedSpan) =>
      trace.filter((span) => span.parentSpanId === parent.spanId);

    // The person's message is stored under the socket event, before its acknowledgement.
    expect(childrenOf(send).map((span) => span.name)).toEqual(
      expect.arrayContaining(["store appendMessage", "turn"]),
    );
    const turn = childrenOf(send).find((span) => span.name === "turn");
    if (turn === undefined) return;
    expect(turn.attributes).toMatchObject({
      "mcp_chat_host.chat": "chat-1",
      "mcp_chat_host.turn.outcome": "complete",
    });

    // Two model requests (the call, then the answer to its result) and the tool call.
    const underTurn = childrenOf(turn);
    const requests = underTurn.filter((span) => span.name.startsWith("chat "));
    expect(requests.length).toBeGreaterThanOrEqual(2);
    for (const request of requests) {
      expect(request.kind).toBe(3); // client
      expect(request.attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "mcp_chat_host.outcome": "ok",
      });
      expect(typeof request.attributes["gen_ai.provider.name"]).toBe("string");
      expect(typeof request.attributes["gen_ai.request.model"]).toBe("string");
    }
    const toolCall = underTurn.find((span) => span.name === "execute_tool open-notes");
    expect(toolCall, underTurn.map((span) => span.name).join(", ")).toBeDefined();
    if (toolCall === undefined) return;
    expect(toolCall.attributes).toMatchObject({
      "gen_ai.tool.name": "open-notes",
      "mcp_chat_host.tool.caller": "model",
      "mcp_chat_host.tool.source": "notes",
      "mcp_chat_host.outcome": "ok",
    });

    // Store writes: the reply's start and end under the turn, the card under the tool call.
    expect(underTurn.map((span) => span.name)).toEqual(
      expect.arrayContaining(["store appendMessage", "store updateMessage"]),
    );
    expect(childrenOf(toolCall).map((span) => span.name)).toContain("store saveCard");
    for (const write of trace.filter((span) => span.name.startsWith("store "))) {
      expect(write.attributes["db.system.name"]).toBe("sqlite");
      expect(write.attributes["db.operation.name"]).toBe(write.name.slice("store ".length));
    }

    // Every span of the tree is one trace, each parent in it; the resource names the node.
    for (const span of [turn, ...requests, toolCall]) expect(span.traceId).toBe(send.traceId);
    expect(send.resource).toMatchObject({
      "service.name": "mcp-chat-host",
      "service.instance.id": "traced-node-1",
      "deployment.environment.name": "traces-test",
    });

    // Nothing the person wrote, and no secret, in any attribute of any span.
    for (const span of spans) {
      for (const value of attributeTexts(span)) {
        expect(value).not.toContain("/call");
        expect(value).not.toContain(apiKey);
        expect(value).not.toContain(collectorToken);
      }
    }
    // The collector got the operator's header (taken out of the environment at start).
    expect(collector.requests.length).toBeGreaterThan(0);
    expect(collector.requests[0]?.headers["authorization"]).toBe(`Bearer ${collectorToken}`);
    expect(collector.requests[0]?.encoding).toBe("gzip");
  });

  test("without an endpoint the program loads none of the OpenTelemetry SDK or exporter", async () => {
    test.setTimeout(120_000);
    // A module hook records the file of every module the program loads.
    const folder = mkdtempSync(join(tmpdir(), "mch-modules-"));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    const log = join(folder, "loaded.txt");
    const hook = join(folder, "record-hook.mjs");
    writeFileSync(
      hook,
      [
        'import { appendFileSync } from "node:fs";',
        "export async function load(url, context, nextLoad) {",
        `  if (url.startsWith("file:")) appendFileSync(${JSON.stringify(log)}, url + "\\n");`,
        "  return nextLoad(url, context);",
        "}",
      ].join("\n"),
    );
    const register = join(folder, "register.mjs");
    writeFileSync(
      register,
      `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`,
    );
    const loadedFiles = async (env: Record<string, string>): Promise<string[]> => {
      writeFileSync(log, "");
      const program = await startProgram(env, [], ["--import", pathToFileURL(register).href]);
      const client = await signedInClient(program.signIn);
      await sendAndWait(client, "/call open-notes {}");
      client.close();
      await program.stop();
      return readFileSync(log, "utf8").split("\n").filter(Boolean);
    };
    // What the SDK's chunk holds, and only it: its exporter and span processor.
    const sdkCode = (url: string) => {
      const code = readFileSync(new URL(url), "utf8");
      return code.includes("OTLPTraceExporter") || code.includes("BatchSpanProcessor");
    };

    const untraced = await loadedFiles({});
    expect(untraced.length).toBeGreaterThan(0);
    expect(untraced.filter(sdkCode)).toEqual([]);

    // The probe sees the SDK when it is loaded: the same program with an endpoint.
    const collector = await startTraceCollector();
    cleanups.push(() => collector.close());
    const traced = await loadedFiles({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint });
    expect(traced.filter(sdkCode).length).toBeGreaterThan(0);
  });
});
