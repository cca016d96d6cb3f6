import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type Request, type Response } from "express";
import type { Logger } from "pino";
import { MetricsListenerError } from "./metrics-listener-error";
import { sendMetrics } from "./metrics-route";
import type { PrometheusHostMetrics } from "./prometheus-host-metrics";

/** Where the metrics listener binds. */
export interface MetricsListenerOptions {
  /** The port (0 picks a free one). */
  port: number;
  /** The address (default `127.0.0.1`). */
  host?: string | undefined;
}

/**
 * A listener of its own that serves `GET /metrics` without a token (and 404 for anything else):
 * the operator binds it where only the scraper reaches (loopback, a private interface).
 */
export class MetricsListener {
  readonly #server: Server;
  #url: string | undefined;

  /**
   * @param metrics - what is served.
   * @param options - where it binds.
   * @param logger - where a failed scrape is logged.
   */
  constructor(
    metrics: PrometheusHostMetrics,
    private readonly options: MetricsListenerOptions,
    logger: Logger,
  ) {
    const app = express();
    app.disable("x-powered-by");
    app.get("/metrics", async (_request: Request, response: Response) => {
      response.setHeader("Cache-Control", "no-store");
      await sendMetrics(metrics, response, logger);
    });
    app.use((_request: Request, response: Response) => {
      response.status(404).type("text/plain").send("Only /metrics is served here.\n");
    });
    this.#server = createServer(app);
  }

  /** The scrape URL (`http://127.0.0.1:9464/metrics`), once listening. */
  get url(): string | undefined {
    return this.#url;
  }

  /**
   * Starts listening.
   *
   * @returns the scrape URL.
   * @throws {MetricsListenerError} when the port is taken or the address is not this machine's.
   */
  async listen(): Promise<string> {
    const host = this.options.host ?? "127.0.0.1";
    await new Promise<void>((resolve, reject) => {
      this.#server.once("error", (error: NodeJS.ErrnoException) => {
        const why =
          error.code === "EADDRINUSE"
            ? "is in use"
            : `cannot be used (${error.code ?? error.message})`;
        reject(
          new MetricsListenerError(
            `The metrics port ${this.options.port} on ${host} ${why}; choose another --metrics-port (or --metrics-host).`,
            { cause: error },
          ),
        );
      });
      this.#server.listen(this.options.port, host, () => {
        this.#server.removeAllListeners("error");
        resolve();
      });
    });
    const { port } = this.#server.address() as AddressInfo;
    this.#url = `http://${host.includes(":") ? `[${host}]` : host}:${port}/metrics`;
    return this.#url;
  }

  /** Stops listening and closes open scrapes. */
  async close(): Promise<void> {
    if (!this.#server.listening) return;
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
