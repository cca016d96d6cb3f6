// Tracing is off unless an OTLP endpoint is set, and off costs nothing: no module of the
// OpenTelemetry SDK or exporter is loaded (a child process records every module it loads while a
// host starts, serves a turn and stops), and the traced code runs its work as it is.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startTraceCollector } from "@mcp-chat-host/testing";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { memoryLogger } from "../testing/http-layer-support";
import { annotateSpan, currentTraceparent, inSpan, openSpan, tracingOn } from "./spans";
import { startTracing, tracesRequested } from "./tracing";

const folders: string[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const hostServerModule = pathToFileURL(
  fileURLToPath(new URL("../create-host-server.ts", import.meta.url)),
).href;

/** The SDK's and exporter's packages (the API alone is loaded by the AI SDK, and is a no-op). */
const sdkPackages = /\/node_modules\/@opentelemetry\/(?!api\/)[^/]+\//;

/**
 * Starts a host in a child process (sources under tsx, in-memory store, offline model) with
 * `env`, stops it, and lists the files of the modules it loaded.
 */
async function modulesLoaded(env: Record<string, string>): Promise<string[]> {
  const folder = mkdtempSync(join(tmpdir(), "mch-tracing-off-"));
  folders.push(folder);
  const log = join(folder, "loaded.txt");
  const hook = join(folder, "hook.mjs");
  writeFileSync(
    hook,
    [
      'import { appendFileSync } from "node:fs";',
      "export async function load(url, context, nextLoad) {",
      `  appendFileSync(${JSON.stringify(log)}, url + "\\n");`,
      "  return nextLoad(url, context);",
      "}",
    ].join("\n"),
  );
  const register = join(folder, "register.mjs");
  writeFileSync(
    register,
    `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`,
  );
  const script = [
    `const { createHostServer } = await import(${JSON.stringify(hostServerModule)});`,
    `const server = createHostServer({ store: ":memory:", model: "offline", env: ${JSON.stringify(env)} });`,
    'await server.listen({ port: 0, host: "127.0.0.1" });',
    "await server.close();",
  ].join("\n");
  writeFileSync(log, "");
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--import",
      pathToFileURL(register).href,
      "--input-type=module",
      "-e",
      script,
    ],
    {
      env: { PATH: process.env["PATH"] ?? "", LOG_LEVEL: "silent" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.once("close", (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  expect(code, output).toBe(0);
  return readFileSync(log, "utf8").split("\n").filter(Boolean);
}

describe("tracing", () => {
  it("is asked for by an OTLP endpoint only, and OTEL_SDK_DISABLED=true wins", () => {
    expect(tracesRequested({})).toBe(false);
    expect(tracesRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "  " })).toBe(false);
    expect(tracesRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBe(true);
    expect(
      tracesRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" }),
    ).toBe(true);
    expect(
      tracesRequested({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318",
        OTEL_SDK_DISABLED: "true",
      }),
    ).toBe(false);
  });

  it("without an endpoint starts nothing, and traced work runs as it is", async () => {
    expect(
      await startTracing({ env: {}, nodeId: "node-x", logger: pino({ level: "silent" }) }),
    ).toBe(null);
    expect(tracingOn()).toBe(false);
    expect(inSpan("sync", {}, () => 42)).toBe(42);
    await expect(inSpan("async", {}, () => Promise.resolve("done"))).resolves.toBe("done");
    expect(() =>
      inSpan("throws", {}, () => {
        throw new Error("passed on");
      }),
    ).toThrow("passed on");
    openSpan("left open", {}).end();
    annotateSpan({ "mcp_chat_host.outcome": "ok" });
    expect(currentTraceparent()).toBeUndefined();
  });

  it("without an endpoint a host loads no module of the SDK or exporter; with one it does", async () => {
    const untraced = await modulesLoaded({});
    // The probe saw the host's own modules.
    expect(untraced.some((url) => url.includes("/packages/host/src/"))).toBe(true);
    expect(untraced.filter((url) => sdkPackages.test(url))).toEqual([]);
    expect(untraced.some((url) => url.includes("/telemetry/tracing-sdk.ts"))).toBe(false);

    const collector = await startTraceCollector();
    try {
      const traced = await modulesLoaded({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint });
      expect(traced.some((url) => url.includes("/telemetry/tracing-sdk.ts"))).toBe(true);
      expect(traced.some((url) => sdkPackages.test(url))).toBe(true);
      // Its close flushed the start's store write (the interrupted replies' check) to the collector.
      expect(collector.spans.map((span) => span.name)).toContain("store markInterruptedReplies");
    } finally {
      await collector.close();
    }
  }, 120_000);

  it("with an endpoint nests spans, marks a failure with its code, and exports on shutdown", async () => {
    const collector = await startTraceCollector();
    try {
      const running = await startTracing({
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: `${collector.endpoint}/` },
        nodeId: "node-unit",
        logger: pino({ level: "silent" }),
      });
      expect(running?.endpoint).toBe(`${collector.endpoint}/v1/traces`);
      expect(tracingOn()).toBe(true);
      let traceparent: string | undefined;
      const failure = Object.assign(new Error("The disk is busy."), { code: "storage_busy" });
      await inSpan("outer", { "mcp_chat_host.chat": "chat-1" }, async () => {
        traceparent = currentTraceparent();
        await inSpan("inner", {}, () => Promise.reject(failure)).catch(() => undefined);
        annotateSpan({ "mcp_chat_host.outcome": "ok" });
      });
      await running?.shutdown();
      expect(tracingOn()).toBe(false);

      const outer = collector.spans.find((span) => span.name === "outer");
      const inner = collector.spans.find((span) => span.name === "inner");
      expect(traceparent).toBe(`00-${outer?.traceId}-${outer?.spanId}-01`);
      expect(inner?.parentSpanId).toBe(outer?.spanId);
      expect(inner?.status.code).toBe(2);
      expect(inner?.attributes["error.type"]).toBe("storage_busy");
      // The failure's message is not the span's: it may hold what a person wrote.
      expect(JSON.stringify(inner)).not.toContain("The disk is busy.");
      expect(outer?.attributes).toMatchObject({
        "mcp_chat_host.chat": "chat-1",
        "mcp_chat_host.outcome": "ok",
      });
      expect(outer?.resource).toMatchObject({
        "service.name": "mcp-chat-host",
        "service.instance.id": "node-unit",
      });
    } finally {
      await collector.close();
    }
  });

  it("logs an export that fails as a warning, and still shuts down within its cap", async () => {
    // A collector that went away: its port refuses the connection.
    const gone = await startTraceCollector();
    await gone.close();
    const { logger, lines } = memoryLogger();
    const running = await startTracing({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: gone.endpoint },
      nodeId: "node-unit",
      logger,
    });
    inSpan("lost", {}, () => undefined);
    await running?.shutdown();
    expect(tracingOn()).toBe(false);
    const warnings = lines.filter((line) => line.level === 40);
    // Refused at once, or retried by the exporter until the shutdown's cap (5 s) ran out.
    expect(warnings.map((line) => line.msg)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^the last spans could not be exported/)]),
    );
  });
});
