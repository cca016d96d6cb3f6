// The OpenTelemetry SDK as the host runs it. Only `tracing.ts` loads this file, with `import()`,
// and only when an OTLP endpoint is configured.
import * as api from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from "@opentelemetry/resources";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import type { Logger } from "pino";
import { useTracing } from "./spans";
import type { RunningTracing } from "./tracing";

/** `service.instance.id` (still incubating in the semantic conventions, so named here). */
const ATTR_SERVICE_INSTANCE_ID = "service.instance.id";

/**
 * Builds, registers and turns on the tracer provider (see `startTracing`).
 *
 * @returns the running provider.
 */
export function startTracerProvider(options: {
  env: NodeJS.ProcessEnv;
  nodeId: string;
  logger: Logger;
}): RunningTracing {
  const { logger } = options;
  // Export failures are the SDK's to retry; the log hears of them once each, at warn.
  api.diag.setLogger(
    {
      error: (message) => logger.warn({ otel: message }, "trace export failed"),
      warn: (message) => logger.warn({ otel: message }, "tracing warning"),
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    api.DiagLogLevel.WARN,
  );
  // Later resources win: the host's names, then what the operator's variables say.
  const resource = defaultResource()
    .merge(
      resourceFromAttributes({
        [ATTR_SERVICE_NAME]: "mcp-chat-host",
        [ATTR_SERVICE_INSTANCE_ID]: options.nodeId,
      }),
    )
    .merge(detectResources({ detectors: [envDetector] }));
  const exporter = new OTLPTraceExporter();
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  provider.register();
  useTracing({ api, tracer: provider.getTracer("mcp-chat-host") });
  let stopped: Promise<void> | null = null;
  return {
    endpoint: endpointForLog(options.env),
    shutdown() {
      stopped ??= (async () => {
        try {
          await provider.forceFlush();
          await provider.shutdown();
        } catch (error) {
          logger.warn({ err: error }, "the last spans could not be exported");
        } finally {
          useTracing(null);
        }
      })();
      return stopped;
    },
  };
}

/** The traces endpoint the exporter posts to, without credentials or query, for the log. */
function endpointForLog(env: NodeJS.ProcessEnv): string {
  const specific = env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]?.trim();
  const general = env["OTEL_EXPORTER_OTLP_ENDPOINT"]?.trim();
  const raw = specific || (general ? `${general.replace(/\/+$/, "")}/v1/traces` : "");
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return "(not a URL)";
  }
}
