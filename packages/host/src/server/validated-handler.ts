import { type Ack, limits, type WireError, wireError } from "@mcp-chat-host/protocol";
import type { Logger } from "pino";
import type { z } from "zod";
import { internalWireError } from "../errors/internal-error";
import { inSpan } from "../telemetry/spans";

/** Options of {@link validatedHandler}. */
export interface ValidatedHandlerOptions {
  /** Where dropped events and unexpected errors are logged. */
  logger?: Logger | undefined;
  /** The event's name, for logs. */
  event?: string | undefined;
  /** Largest payload accepted, in bytes of JSON (default `limits.maxPayloadBytes`). */
  maxBytes?: number | undefined;
  /**
   * Turns what a handler threw into the error the browser receives: the engine's one mapping
   * (`toWireError` of `errors/`). This shell knows no local errors, so without it every failure
   * is `internal`.
   */
  toWireError?: ((error: unknown) => WireError) | undefined;
}

/**
 * Describes the first problems of a failed parse, naming the fields.
 *
 * @returns e.g. `The request is not valid: instanceId: Invalid input: expected string, received undefined.`
 */
function describeIssues(error: z.ZodError): string {
  const parts = error.issues.slice(0, 3).map((issue) => {
    const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "payload";
    return `${field}: ${issue.message}`;
  });
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : "";
  return `The request is not valid: ${parts.join("; ")}${more}.`;
}

/**
 * Whether a payload's JSON form is over `maxBytes` of UTF-8, or has none (it cannot be valid
 * then). A UTF-16 unit takes at most 3 bytes of UTF-8, so a short JSON needs no byte count.
 */
function overBytes(payload: unknown, maxBytes: number): boolean {
  let text: string | undefined;
  try {
    text = JSON.stringify(payload);
  } catch {
    return true;
  }
  if (text === undefined || text.length * 3 <= maxBytes) return false;
  return Buffer.byteLength(text, "utf8") > maxBytes;
}

/**
 * Wraps a socket event handler so that it only ever sees a valid payload and always answers the
 * acknowledgement once: a payload over `maxBytes` → `too_large`; one that fails the schema →
 * `bad_request` naming the field; a thrown or rejected error → `options.toWireError`; otherwise
 * `{ ok: true, value }`. An event sent without an acknowledgement callback is dropped with a
 * warning (every event of the contract has one, so this is a broken or hostile client).
 *
 * @param schema - the payload's zod schema (from `@mcp-chat-host/protocol` where it has one).
 * @param handler - runs with the parsed payload; its return value (or promise) is the ack value.
 * @param options - logger, event name, size cap and the error mapping.
 * @returns a listener for `socket.on(event, ...)`.
 */
export function validatedHandler<Schema extends z.ZodType, Value>(
  schema: Schema,
  handler: (payload: z.output<Schema>) => Value | Promise<Value>,
  options: ValidatedHandlerOptions = {},
): (...args: unknown[]) => void {
  return (...args: unknown[]): void => {
    answerValidated(schema, handler, options, args);
  };
}

/**
 * What {@link validatedHandler}'s listener does with one event's arguments, for a caller that
 * keeps one listener per event and socket as small as it can (the session's handlers are shared
 * by every socket; only this call is made per event).
 *
 * @param args - the listener's arguments: the payload, then the acknowledgement callback.
 * @param event - the event's name for logs, when `options` has none.
 */
export function answerValidated<Schema extends z.ZodType, Value>(
  schema: Schema,
  handler: (payload: z.output<Schema>) => Value | Promise<Value>,
  options: ValidatedHandlerOptions,
  args: readonly unknown[],
  event: string | undefined = options.event,
): void {
  const maxBytes = options.maxBytes ?? limits.maxPayloadBytes;
  const toWireError = options.toWireError ?? internalWireError;
  const last = args[args.length - 1];
  if (typeof last !== "function") {
    options.logger?.warn({ event }, "Dropped an event sent without an acknowledgement callback.");
    return;
  }
  let answered = false;
  const answer = (ack: Ack<Value>): void => {
    if (answered) return;
    answered = true;
    (last as (ack: Ack<Value>) => void)(ack);
  };
  if (args.length > 2) {
    answer({
      ok: false,
      error: wireError("bad_request", "The request is not valid: send one payload object."),
    });
    return;
  }
  const payload = args.length === 2 ? args[0] : undefined;
  if (overBytes(payload, maxBytes)) {
    options.logger?.warn({ event, maxBytes }, "Refused an oversized payload.");
    answer({
      ok: false,
      error: wireError(
        "too_large",
        `The request is larger than the server accepts (${maxBytes} bytes); send less at once.`,
      ),
    });
    return;
  }
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    answer({ ok: false, error: wireError("bad_request", describeIssues(parsed.error)) });
    return;
  }
  // One span per answered event (while tracing is on), the parent of what its handler does.
  inSpan(
    event ?? "socket event",
    { "mcp_chat_host.socket.event": event ?? "" },
    (span) => {
      const fail = (error: unknown): void => {
        const wire = toWireError(error);
        if (wire.code === "internal")
          options.logger?.error({ err: error, event }, "A socket handler failed.");
        span.fail(wire.code);
        answer({ ok: false, error: wire });
      };
      try {
        return Promise.resolve(handler(parsed.data)).then(
          (value) => answer({ ok: true, value }),
          fail,
        );
      } catch (error) {
        fail(error);
        return undefined;
      }
    },
    "server",
  );
}
