import { type WireError, type WireErrorCode, wireError } from "@mcp-chat-host/protocol";
import type { ErrorRequestHandler } from "express";
import type { Logger } from "pino";

/** The HTTP status of a route's answer for each wire code. */
const httpStatusOf: { readonly [Code in WireErrorCode]: number } = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  too_large: 413,
  rate_limited: 429,
  busy: 409,
  refused: 403,
  conflict: 409,
  unavailable: 503,
  timeout: 504,
  closed: 503,
  storage: 503,
  internal: 500,
};
/** What {@link routeErrorHandler} needs. */
export interface RouteErrorOptions {
  /** Largest JSON body, in bytes, named in the answer to a body too large. */
  maxHttpBufferSize: number;
  /** Turns what a route threw into the error its JSON answer carries. */
  toWireError: (error: unknown) => WireError;
  logger: Logger;
}

/**
 * Express error handler of the HTTP routes: a body too large answers 413 `too_large`, another
 * unreadable request 400 `bad_request`, anything else the wire error `toWireError` gives, with its
 * HTTP status (an `internal` one is logged).
 *
 * @param options - the body limit, the error mapping and the logger.
 * @returns the handler.
 */
export function routeErrorHandler(options: RouteErrorOptions): ErrorRequestHandler {
  const { maxHttpBufferSize, toWireError, logger } = options;
  return (error: unknown, request, response, _next) => {
    const status = (error as { status?: unknown }).status;
    if (status === 413) {
      response.status(413).json({
        ok: false,
        error: wireError(
          "too_large",
          `The request body is larger than ${maxHttpBufferSize} bytes.`,
        ),
      });
      return;
    }
    if (typeof status === "number" && status >= 400 && status < 500) {
      response
        .status(status)
        .json({ ok: false, error: wireError("bad_request", "The request could not be read.") });
      return;
    }
    const wire = toWireError(error);
    if (wire.code === "internal")
      logger.error({ err: error, path: request.path }, "An HTTP route failed.");
    response.status(httpStatusOf[wire.code]).json({ ok: false, error: wire });
  };
}
