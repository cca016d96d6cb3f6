// The host's one door to tracing. Code that is traced calls these functions; while tracing is off
// (no OTLP endpoint configured) they run the work as it is and touch nothing of OpenTelemetry, so
// the API, the SDK and the exporter are never loaded. `tracing.ts` turns them on by handing over
// the `@opentelemetry/api` it loaded with the SDK, once, before the host serves anyone.
import type * as OpenTelemetryApi from "@opentelemetry/api";
import type { Attributes, Context, Span, SpanKind, Tracer } from "@opentelemetry/api";

/** The OpenTelemetry API module, as `tracing-sdk.ts` loads it. */
export type TracingApi = typeof OpenTelemetryApi;

/** Values a span may carry: never message text, prompts, arguments, keys or SQL values. */
export type SpanAttributes = Attributes;

/** The kinds of span the host makes (OpenTelemetry's `SpanKind`, by name). */
export type SpanRole = "internal" | "server" | "client";

/** What a traced piece of work may add to its span while it runs. */
export interface SpanHandle {
  /** Adds attributes to the span (nothing while tracing is off). */
  set(attributes: SpanAttributes): void;
  /**
   * Marks the span failed: status ERROR, `error.type` set to `kind` (a code such as
   * `rate_limited` or a failure kind, never a message a person wrote).
   */
  fail(kind: string): void;
}

let active: { api: TracingApi; tracer: Tracer } | null = null;

const idle: SpanHandle = { set() {}, fail() {} };

/**
 * Turns tracing on for the process (called by `startTracing` once the SDK is registered), with the
 * API and the started provider's tracer.
 */
export function useTracing(tracing: { api: TracingApi; tracer: Tracer }): void {
  active = tracing;
}

/**
 * Turns tracing off if `tracer` is the one in use (a provider that shut down, while another host
 * of the same process may have started its own since).
 */
export function stopTracing(tracer: Tracer): void {
  if (active?.tracer === tracer) active = null;
}

/** Whether spans are being recorded (an OTLP endpoint is configured and the SDK started). */
export function tracingOn(): boolean {
  return active !== null;
}

function kindOf(api: TracingApi, role: SpanRole): SpanKind {
  return role === "server"
    ? api.SpanKind.SERVER
    : role === "client"
      ? api.SpanKind.CLIENT
      : api.SpanKind.INTERNAL;
}

/** Spans already marked failed by their work (so a rejection keeps the work's own kind). */
const spanFailed = new WeakSet<Span>();

function handleOf(api: TracingApi, span: Span): SpanHandle {
  return {
    set(attributes) {
      span.setAttributes(attributes);
    },
    fail(kind) {
      spanFailed.add(span);
      span.setAttribute("error.type", kind);
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: kind });
    },
  };
}

/**
 * Runs `work` inside a span, the span being the parent of every span started in it (across its
 * awaits). The span ends when `work` returns, or when the promise it returns settles; a throw or
 * a rejection marks it failed (`error.type` = the error's `code`, else its class name) and is
 * passed on unchanged. With tracing off this is `work(idleHandle)`.
 *
 * @param name - the span's name (a socket event, `turn`, `chat <model>`, `store <operation>`).
 * @param attributes - its attributes at the start.
 * @returns what `work` returns.
 */
export function inSpan<T>(
  name: string,
  attributes: SpanAttributes,
  work: (span: SpanHandle) => T,
  role: SpanRole = "internal",
): T {
  const tracing = active;
  if (tracing === null) return work(idle);
  const { api, tracer } = tracing;
  return tracer.startActiveSpan(name, { kind: kindOf(api, role), attributes }, (span) => {
    const handle = handleOf(api, span);
    const failed = (error: unknown): void => {
      if (!spanFailed.has(span)) handle.fail(errorKind(error));
      span.end();
    };
    let result: T;
    try {
      result = work(handle);
    } catch (error) {
      failed(error);
      throw error;
    }
    if (isPromise(result)) {
      result.then(
        () => span.end(),
        (error: unknown) => failed(error),
      );
      return result;
    }
    span.end();
    return result;
  });
}

/**
 * A span that the caller ends itself, for work that is not one call (a model's streamed answer
 * ends when its last chunk is read). It is a child of the span active now; nothing runs inside it.
 *
 * @returns its handle and `end`; with tracing off, a handle that does nothing.
 */
export function openSpan(
  name: string,
  attributes: SpanAttributes,
  role: SpanRole = "internal",
): SpanHandle & { end(): void } {
  const tracing = active;
  if (tracing === null) return { ...idle, end() {} };
  const { api, tracer } = tracing;
  const span = tracer.startSpan(name, { kind: kindOf(api, role), attributes });
  let ended = false;
  return {
    ...handleOf(api, span),
    end() {
      if (ended) return;
      ended = true;
      span.end();
    },
  };
}

/**
 * Adds attributes to the span active now (the one an enclosing {@link inSpan} made), for facts
 * known only at the end of its work; `failure` marks it failed with that kind. Nothing while
 * tracing is off.
 */
export function annotateSpan(attributes: SpanAttributes, failure?: string): void {
  const tracing = active;
  if (tracing === null) return;
  const span = tracing.api.trace.getActiveSpan();
  if (span === undefined) return;
  const handle = handleOf(tracing.api, span);
  handle.set(attributes);
  if (failure !== undefined) handle.fail(failure);
}

/**
 * The W3C `traceparent` of the span active now, to send with work that another node picks up
 * (see `cluster/live-replies.ts`); undefined while tracing is off or no span is active.
 */
export function currentTraceparent(): string | undefined {
  const tracing = active;
  if (tracing === null) return undefined;
  const carrier: Record<string, string> = {};
  tracing.api.propagation.inject(tracing.api.context.active(), carrier);
  return carrier["traceparent"];
}

/**
 * Like {@link inSpan}, for work another node asked for: the span is a child of the sender's span
 * (its W3C `traceparent`), so both nodes' spans share one trace, and it also carries a link to the
 * sender's span. A missing or malformed `traceparent` gives a span of a trace of its own.
 */
export function inRemoteSpan<T>(
  traceparent: unknown,
  name: string,
  attributes: SpanAttributes,
  work: (span: SpanHandle) => T,
): T {
  const tracing = active;
  if (tracing === null) return work(idle);
  const { api } = tracing;
  const parent: Context =
    typeof traceparent === "string"
      ? api.propagation.extract(api.ROOT_CONTEXT, { traceparent })
      : api.ROOT_CONTEXT;
  const sender = api.trace.getSpanContext(parent);
  const links = sender === undefined ? [] : [{ context: sender }];
  return api.context.with(parent, () =>
    tracing.tracer.startActiveSpan(
      name,
      { kind: api.SpanKind.SERVER, attributes, links },
      (span) => {
        try {
          const result = work(handleOf(api, span));
          if (isPromise(result)) {
            result.then(
              () => span.end(),
              () => span.end(),
            );
          } else span.end();
          return result;
        } catch (error) {
          span.end();
          throw error;
        }
      },
    ),
  );
}

function isPromise<T>(value: T): value is T & Promise<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/** The kind of a failure for `error.type`: its `code` when it has a string one, else its class. */
function errorKind(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && code !== "") return code;
    const name = (error as { name?: unknown }).name;
    if (typeof name === "string" && name !== "") return name;
  }
  return "Error";
}
