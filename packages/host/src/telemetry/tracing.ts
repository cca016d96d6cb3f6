// Starts OpenTelemetry tracing when the operator configured an OTLP endpoint, and only then: the
// SDK and the exporter (tracing-sdk.ts) are loaded with `import()`, so a host without an endpoint
// loads no OpenTelemetry module, keeps no exporter's memory and spends no start-up time on it (the
// bundle keeps them in a chunk of its own).
import type { Logger } from "pino";
import type { RunningTracing } from "./tracing-sdk";

export type { RunningTracing } from "./tracing-sdk";

/** The variables that turn tracing on (the OpenTelemetry SDK's own names). */
const TRACES_ENDPOINT_VARIABLES = [
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
  "OTEL_EXPORTER_OTLP_ENDPOINT",
] as const;

/**
 * Whether the environment asks for traces: an OTLP endpoint is set (and `OTEL_SDK_DISABLED` is
 * not `true`, as the SDK reads it).
 */
export function tracesRequested(env: NodeJS.ProcessEnv): boolean {
  if (env["OTEL_SDK_DISABLED"]?.trim().toLowerCase() === "true") return false;
  return TRACES_ENDPOINT_VARIABLES.some((name) => (env[name] ?? "").trim() !== "");
}

/**
 * Starts tracing when {@link tracesRequested}: a `NodeTracerProvider` with a `BatchSpanProcessor`
 * and the OTLP/HTTP JSON exporter, registered as the process's global provider (with the W3C
 * trace-context propagator and the async-hooks context manager), and the host's spans turned on.
 * The resource is `service.name` `mcp-chat-host` and `service.instance.id` the node id, then what
 * `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES` say; the exporter reads the `OTEL_EXPORTER_OTLP_*`
 * variables itself (endpoint, headers, compression, timeout).
 *
 * @returns the running provider, or null when no endpoint is configured (nothing was loaded).
 */
export async function startTracing(options: {
  env: NodeJS.ProcessEnv;
  nodeId: string;
  logger: Logger;
}): Promise<RunningTracing | null> {
  if (!tracesRequested(options.env)) return null;
  const { startTracerProvider } = await import("./tracing-sdk");
  const running = startTracerProvider(options);
  options.logger.info({ endpoint: running.endpoint }, "traces are exported over OTLP/HTTP");
  return running;
}
