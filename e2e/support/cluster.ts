// Several host nodes on this machine's loopback, as the cluster spec and `npm run cluster` run
// them: a real PostgreSQL and a real Redis (Debian's programs, in temporary folders), N nodes of
// the published program (packages/mcp-chat-host/dist/cli.js) sharing them, and the suite's
// balancer in front, which acts as the authenticating proxy of trusted-header mode. Everything
// binds 127.0.0.1 and stops with `stop()`; no process outlives the caller.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  freePort,
  startBalancer,
  startPostgres,
  startRedis,
  type RunningBalancer,
  type RunningRedis,
} from "@mcp-chat-host/testing";
import { clusterUserHeader, createNode, type ClusterNode } from "./cluster-node";

export type { ClusterNode } from "./cluster-node";

/** How the cluster is set up. Every field has a default. */
export interface ClusterOptions {
  /** The nodes' names, one per node; default `["a", "b"]`. */
  readonly nodes?: readonly string[];
  /** The balancer's port; default (or 0) a free one. */
  readonly port?: number;
  /** The model spec of every node; default the offline model. */
  readonly model?: string;
  /** Extra environment of every node (provider keys and base URLs, LOG_LEVEL...). */
  readonly env?: Readonly<Record<string, string>>;
  /** Real npm MCP servers each node runs over stdio, their tool calls counted (see countingServer). */
  readonly servers?: readonly string[];
  /** The user when the browser sets no user cookie (for a person trying it); default none. */
  readonly defaultUser?: string;
  /** Where the nodes' data folders and the counts go; default a new temporary folder. */
  readonly folder?: string;
}

/** A running cluster. */
export interface RunningCluster {
  /** The balancer's origin: what people open. */
  readonly url: string;
  readonly balancer: RunningBalancer;
  /**
   * The balancer of the sandbox: app views are served by every node for the names
   * `http://<source>.localhost:<port>` (the nodes sign view URLs with a key derived from the
   * shared session secret, so any node answers any view), and this balancer spreads them.
   */
  readonly sandboxBalancer: RunningBalancer;
  readonly postgres: { readonly url: string; stop(): Promise<void>; restart(): Promise<void> };
  readonly redis: RunningRedis;
  readonly nodes: readonly ClusterNode[];
  /** The shared session secret (every node signs cookies with it). */
  readonly sessionSecret: string;
  /** Tool calls of every node's MCP servers together, per `source/tool`. */
  toolCalls(): Record<string, number>;
  /** Stops the nodes, the balancer, Redis and Postgres, and removes the temporary folder. */
  stop(): Promise<void>;
}

/**
 * Starts Postgres, Redis, the nodes and the balancer, all on 127.0.0.1.
 *
 * @param options - the nodes, the model, the servers and the balancer's port.
 * @returns the running cluster; call `stop()` when done.
 */
export async function startCluster(options: ClusterOptions = {}): Promise<RunningCluster> {
  const folder = options.folder ?? mkdtempSync(join(tmpdir(), "mcp-chat-host-cluster-"));
  const ownsFolder = options.folder === undefined;
  mkdirSync(folder, { recursive: true });
  const names = options.nodes ?? ["a", "b"];
  const sessionSecret = randomBytes(36).toString("base64url");
  // Every node serves its own /metrics to the bearer of this token (ClusterNode.metrics).
  const metricsToken = randomBytes(24).toString("base64url");
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    stops.length = 0;
    if (ownsFolder) rmSync(folder, { recursive: true, force: true });
  };
  try {
    const postgres = await startPostgres();
    stops.push(() => postgres.stop());
    // As operators run it: an ACL user with a password, both in REDIS_URL.
    const redis = await startRedis({
      user: "mcp-chat-host",
      password: randomBytes(18).toString("base64url"),
    });
    stops.push(() => redis.stop());
    // 0 (or none) asks for a free port; it is chosen here, since the nodes must know it.
    const balancerPort =
      options.port === undefined || options.port === 0 ? await freePort() : options.port;
    const publicOrigin = `http://127.0.0.1:${balancerPort}`;
    const sandboxBalancerPort = await freePort();
    const sandboxTemplate = `http://{source}.localhost:${sandboxBalancerPort}`;
    const nodes: ClusterNode[] = [];
    for (const name of names) {
      const node = createNode({
        name,
        folder: join(folder, `node-${name}`),
        port: await freePort(),
        sandboxPort: await freePort(),
        sandboxTemplate,
        publicOrigin,
        servers: options.servers ?? [],
        model: options.model,
        env: {
          ...options.env,
          DATABASE_URL: postgres.url,
          REDIS_URL: redis.url,
          NODE_ID: name,
          SESSION_SECRET: sessionSecret,
          METRICS_TOKEN: metricsToken,
        },
      });
      stops.push(() => node.stop());
      nodes.push(node);
    }
    await Promise.all(nodes.map((node) => node.start()));
    const balancer = await startBalancer({
      port: balancerPort,
      backends: nodes.map((node) => ({ name: node.name, port: node.port })),
      userHeader: clusterUserHeader,
      ...(options.defaultUser === undefined ? {} : { defaultUser: options.defaultUser }),
    });
    stops.push(() => balancer.close());
    const sandboxBalancer = await startBalancer({
      port: sandboxBalancerPort,
      backends: nodes.map((node) => ({ name: node.name, port: node.sandboxPort })),
    });
    stops.push(() => sandboxBalancer.close());
    return {
      url: balancer.url,
      balancer,
      sandboxBalancer,
      postgres,
      redis,
      nodes,
      sessionSecret,
      toolCalls() {
        const total: Record<string, number> = {};
        for (const node of nodes) {
          for (const [key, count] of Object.entries(node.toolCalls())) {
            total[key] = (total[key] ?? 0) + count;
          }
        }
        return total;
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
