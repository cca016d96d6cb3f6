import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { type HostMetrics, noHostMetrics } from "./host-metrics";
import { metricsRoute } from "./metrics-route";
import { PrometheusHostMetrics } from "./prometheus-host-metrics";

/** How the operator turned metrics on; neither field set: off. */
export interface MetricsOptions {
  /** Serve `GET /metrics` on the host's own port to requests bearing this token (`METRICS_TOKEN`). */
  token?: string | undefined;
}

/** The metrics of one host: the port its services report to, and what serves them. */
export interface MetricsSetup {
  /** What services report to ({@link noHostMetrics} when metrics are off). */
  metrics: HostMetrics;
  /** The `GET /metrics` handler of the host's own port; none: that path is 404. */
  route: RequestHandler | undefined;
}

/**
 * Builds a host's metrics from the operator's settings.
 *
 * @param options - the settings (none: off).
 * @param logger - where a failed scrape is logged.
 * @returns the metrics and their handler.
 */
export function setUpMetrics(options: MetricsOptions | undefined, logger: Logger): MetricsSetup {
  const token = options?.token;
  if (token === undefined || token === "") return { metrics: noHostMetrics, route: undefined };
  const metrics = new PrometheusHostMetrics();
  return { metrics, route: metricsRoute(metrics, token, logger) };
}
