// A stand-in for an OpenTelemetry Collector's OTLP/HTTP traces receiver, for tests: it accepts
// `POST /v1/traces` with a JSON `ExportTraceServiceRequest` (gzip-compressed or not) and answers
// as the collector does, 200 with `{"partialSuccess":{}}`; other content types get 415, a body
// that is not OTLP JSON 400. It keeps every span it was sent, flattened, with its resource's
// attributes, so a test can check a trace's tree.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync, inflateSync } from "node:zlib";

/** An attribute value as OTLP JSON carries it, read back into JavaScript. */
export type CollectedValue = string | number | boolean | null | CollectedValue[];

/** One span the collector received. */
export interface CollectedSpan {
  traceId: string;
  spanId: string;
  /** The parent's span id, or "" for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's span kind number (1 internal, 2 server, 3 client, 4 producer, 5 consumer). */
  kind: number;
  attributes: Record<string, CollectedValue>;
  /** The spans it links to. */
  links: Array<{ traceId: string; spanId: string }>;
  /** OTLP's status code (0 unset, 1 ok, 2 error) and message. */
  status: { code: number; message?: string };
  /** The attributes of the resource that sent it (`service.name`, `service.instance.id`, ...). */
  resource: Record<string, CollectedValue>;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
}

/** A running collector stand-in. */
export interface TraceCollector {
  /** `http://127.0.0.1:<port>`: the value of `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly endpoint: string;
  /** Every span received so far, in the order received. */
  readonly spans: readonly CollectedSpan[];
  /** The requests received: their `content-encoding` (or "identity") and any `authorization`-like headers. */
  readonly requests: ReadonlyArray<{ encoding: string; headers: Record<string, string> }>;
  /**
   * Resolves with the spans once `done(spans)` holds for what was received, checked at each
   * export; rejects after `timeoutMs` with what it has.
   */
  waitFor(
    done: (spans: readonly CollectedSpan[]) => boolean,
    timeoutMs?: number,
  ): Promise<readonly CollectedSpan[]>;
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}

interface OtlpAttribute {
  key: string;
  value?: OtlpValue;
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  attributes?: OtlpAttribute[];
  links?: Array<{ traceId: string; spanId: string }>;
  status?: { code?: number; message?: string };
  startTimeUnixNano?: string | number;
  endTimeUnixNano?: string | number;
}

interface OtlpRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{ spans?: OtlpSpan[] }>;
  }>;
}

function valueOf(value: OtlpValue | undefined): CollectedValue {
  if (value === undefined) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  return null;
}

function attributesOf(attributes: OtlpAttribute[] | undefined): Record<string, CollectedValue> {
  return Object.fromEntries((attributes ?? []).map((entry) => [entry.key, valueOf(entry.value)]));
}

/** The request's body, decompressed as its `content-encoding` says. */
async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const encoding = (request.headers["content-encoding"] ?? "identity").toLowerCase();
  if (encoding === "gzip") return gunzipSync(raw);
  if (encoding === "deflate") return inflateSync(raw);
  return raw;
}

/**
 * Starts the collector stand-in on 127.0.0.1 (port 0 unless given).
 *
 * @returns the running collector.
 */
export async function startTraceCollector(port = 0): Promise<TraceCollector> {
  const spans: CollectedSpan[] = [];
  const requests: Array<{ encoding: string; headers: Record<string, string> }> = [];
  const waiters = new Set<() => void>();

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    if (request.method !== "POST" || request.url?.split("?")[0] !== "/v1/traces") {
      send(404, { code: 5, message: "Only POST /v1/traces is served here." });
      return;
    }
    const type = (request.headers["content-type"] ?? "").split(";")[0]?.trim();
    if (type !== "application/json") {
      send(415, { code: 3, message: `This stand-in reads OTLP JSON only, not ${type}.` });
      return;
    }
    let parsed: OtlpRequest;
    try {
      parsed = JSON.parse((await bodyOf(request)).toString("utf8")) as OtlpRequest;
    } catch {
      send(400, { code: 3, message: "The body is not OTLP JSON." });
      return;
    }
    requests.push({
      encoding: request.headers["content-encoding"] ?? "identity",
      headers: Object.fromEntries(
        Object.entries(request.headers).flatMap(([name, value]) =>
          typeof value === "string" ? [[name, value]] : [],
        ),
      ),
    });
    for (const resourceSpans of parsed.resourceSpans ?? []) {
      const resource = attributesOf(resourceSpans.resource?.attributes);
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? "",
            name: span.name,
            kind: span.kind ?? 0,
            attributes: attributesOf(span.attributes),
            links: (span.links ?? []).map((link) => ({
              traceId: link.traceId,
              spanId: link.spanId,
            })),
            status: {
              code: span.status?.code ?? 0,
              ...(span.status?.message === undefined ? {} : { message: span.status.message }),
            },
            resource,
            startTimeUnixNano: String(span.startTimeUnixNano ?? "0"),
            endTimeUnixNano: String(span.endTimeUnixNano ?? "0"),
          });
        }
      }
    }
    send(200, { partialSuccess: {} });
    for (const waiter of [...waiters]) waiter();
  }

  const server = createServer((request, response) => {
    answer(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    spans,
    requests,
    waitFor(done, timeoutMs = 20_000) {
      if (done(spans)) return Promise.resolve(spans);
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!done(spans)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(spans);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `The collector did not get the spans awaited within ${timeoutMs} ms; it has: ${spans.map((span) => span.name).join(", ")}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
