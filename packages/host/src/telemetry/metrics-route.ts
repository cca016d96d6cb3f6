import { createHash, timingSafeEqual } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import type { PrometheusHostMetrics } from "./prometheus-host-metrics";

/** The part of a bearer credential that is compared: its SHA-256, so lengths never leak. */
function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/**
 * `GET /metrics` on the host's own port: the Prometheus text format for a request that carries
 * `Authorization: Bearer <token>`, 401 with `WWW-Authenticate: Bearer` for any other. The token
 * is compared in constant time (both sides hashed, then `timingSafeEqual`).
 *
 * @param metrics - what is served.
 * @param token - the operator's `METRICS_TOKEN`.
 * @param logger - where a failed collection is logged.
 * @returns the Express handler.
 */
export function metricsRoute(
  metrics: PrometheusHostMetrics,
  token: string,
  logger: Logger,
): RequestHandler {
  const expected = digest(token);
  return async (request: Request, response: Response): Promise<void> => {
    response.setHeader("Cache-Control", "no-store");
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.get("authorization") ?? "");
    if (match?.[1] === undefined || !timingSafeEqual(digest(match[1]), expected)) {
      response.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
      response
        .status(401)
        .type("text/plain")
        .send("Scraping /metrics needs the header Authorization: Bearer <METRICS_TOKEN>.\n");
      return;
    }
    await sendMetrics(metrics, response, logger);
  };
}

/**
 * Answers a scrape with the metrics, or 500 saying the metrics could not be collected.
 *
 * @param metrics - what is served.
 * @param response - the answer.
 * @param logger - where a failed collection is logged.
 */
export async function sendMetrics(
  metrics: PrometheusHostMetrics,
  response: Response,
  logger: Logger,
): Promise<void> {
  try {
    const { body, contentType } = await metrics.scrape();
    response.setHeader("Content-Type", contentType);
    response.status(200).send(body);
  } catch (error) {
    logger.warn({ err: error }, "The metrics could not be collected for a scrape.");
    response.status(500).type("text/plain").send("The metrics could not be collected.\n");
  }
}
