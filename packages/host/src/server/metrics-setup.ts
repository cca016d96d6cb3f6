import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { isLoopbackAddress } from "./bind-policy";
import { type HostMetrics, noHostMetrics } from "../telemetry/host-metrics";
import { MetricsListener } from "../telemetry/metrics-listener";
import { metricsRoute } from "../telemetry/metrics-route";
import { type ObservedState, PrometheusHostMetrics } from "../telemetry/prometheus-host-metrics";

/** How the operator turned metrics on; neither `token` nor `port` set: off. */
export interface MetricsOptions {
  /** Serve `GET /metrics` on the host's own port to requests bearing this token (`METRICS_TOKEN`). */
  token?: string | undefined;
  /** Serve `GET /metrics` without a token on a listener of its own, on this port (0: a free one). */
  port?: number | undefined;
  /** The address of that listener (default `127.0.0.1`). */
  host?: string | undefined;
}

/** The metrics of one host: the port its services report to, and what serves them. */
export interface MetricsSetup {
  /** What services report to ({@link noHostMetrics} when metrics are off). */
  readonly metrics: HostMetrics;
  /** The `GET /metrics` handler of the host's own port; none: that path is 404. */
  readonly route: RequestHandler | undefined;
  /**
   * Starts serving, with the gauges reading `state`.
   *
   * @returns the own listener's scrape URL, when there is one.
   */
  start(state: ObservedState): Promise<string | undefined>;
  /** The own listener's scrape URL, once started. */
  readonly url: string | undefined;
  /** Stops the own listener. */
  close(): Promise<void>;
}

const metricsOff: MetricsSetup = {
  metrics: noHostMetrics,
  route: undefined,
  start: async () => undefined,
  url: undefined,
  close: async () => {},
};

/**
 * Builds a host's metrics from the operator's settings.
 *
 * @param options - the settings (none: off).
 * @param logger - where a failed scrape is logged.
 * @returns the metrics, their handler and their listener.
 */
export function setUpMetrics(options: MetricsOptions | undefined, logger: Logger): MetricsSetup {
  const token = options?.token === "" ? undefined : options?.token;
  const port = options?.port;
  if (token === undefined && port === undefined) return metricsOff;
  const metrics = new PrometheusHostMetrics();
  const listener =
    port === undefined
      ? undefined
      : new MetricsListener(metrics, { port, host: options?.host }, logger);
  return {
    metrics,
    route: token === undefined ? undefined : metricsRoute(metrics, token, logger),
    async start(state) {
      metrics.observe(state);
      const url = await listener?.listen();
      const host = options?.host ?? "127.0.0.1";
      if (url !== undefined && !isLoopbackAddress(host)) {
        logger.warn(
          { url },
          "The metrics listener answers anyone who reaches it, without a token; keep its address where only your scraper reaches.",
        );
      }
      return url;
    },
    get url() {
      return listener?.url;
    },
    close: async () => listener?.close(),
  };
}
