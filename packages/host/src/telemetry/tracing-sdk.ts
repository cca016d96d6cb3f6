// The OpenTelemetry SDK as the host runs it. Only `tracing.ts` loads this file, with `import()`,
// and only when an OTLP endpoint is configured.
import * as api from "@opentelemetry/api";
import { parseKeyPairsIntoRecord } from "@opentelemetry/core";
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
import { stopTracing, useTracing } from "./spans";

/** A started tracer provider. */
export interface RunningTracing {
  /** Where spans go (the endpoint's origin and path, without credentials), for the start log. */
  readonly endpoint: string;
  /** Exports every span still queued, then stops the provider; safe to call twice. */
  shutdown(): Promise<void>;
}

/** How long a shutdown waits for the last export (the drain's own timeout is the operator's). */
const SHUTDOWN_EXPORT_MS = 5_000;

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
  // The endpoint and headers come from the host's environment: the program takes the headers
  // (they usually carry the collector's token) out of `process.env` at start, as every secret.
  const headers = {
    ...parseKeyPairsIntoRecord(options.env["OTEL_EXPORTER_OTLP_HEADERS"]),
    ...parseKeyPairsIntoRecord(options.env["OTEL_EXPORTER_OTLP_TRACES_HEADERS"]),
  };
  const url = tracesUrl(options.env);
  const exporter = new OTLPTraceExporter({
    ...(url === undefined ? {} : { url }),
    ...(Object.keys(headers).length === 0 ? {} : { headers }),
  });
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  provider.register();
  const tracer = provider.getTracer("mcp-chat-host");
  useTracing({ api, tracer });
  let stopped: Promise<void> | null = null;
  return {
    endpoint: endpointForLog(options.env),
    shutdown() {
      stopped ??= (async () => {
        stopTracing(tracer);
        // The provider's shutdown exports what is queued; a collector that does not answer
        // holds the host's exit for at most SHUTDOWN_EXPORT_MS.
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<"late">((resolve) => {
          timer = setTimeout(() => resolve("late"), SHUTDOWN_EXPORT_MS);
          timer.unref();
        });
        const exported = (async () => {
          try {
            await provider.forceFlush();
          } catch (error) {
            logger.warn({ err: error }, "the last spans could not be exported");
          }
          await provider.shutdown();
        })();
        try {
          const outcome = await Promise.race([exported, late]);
          if (outcome === "late") {
            logger.warn(
              { waitedMs: SHUTDOWN_EXPORT_MS },
              "the last spans could not be exported in time; stopping without them",
            );
          }
        } catch (error) {
          logger.warn({ err: error }, "the tracer provider did not shut down cleanly");
        } finally {
          clearTimeout(timer);
        }
      })();
      return stopped;
    },
  };
}

/**
 * The URL spans are posted to, as the SDK reads its variables: the traces endpoint as given, else
 * the general endpoint with `/v1/traces` appended.
 *
 * @returns the URL, or undefined when neither variable holds a URL (the exporter's default then).
 */
function tracesUrl(env: NodeJS.ProcessEnv): string | undefined {
  const specific = env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]?.trim();
  const general = env["OTEL_EXPORTER_OTLP_ENDPOINT"]?.trim();
  const raw =
    specific || (general ? `${general.endsWith("/") ? general : `${general}/`}v1/traces` : "");
  return URL.canParse(raw) ? new URL(raw).toString() : undefined;
}

/** The traces URL without credentials or query, for the log. */
function endpointForLog(env: NodeJS.ProcessEnv): string {
  const raw = tracesUrl(env);
  if (raw === undefined) return "(not a URL: the exporter's default)";
  const url = new URL(raw);
  return `${url.protocol}//${url.host}${url.pathname}`;
}
