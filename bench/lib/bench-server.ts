// The host as the many-sessions benchmark runs it, in a child process so that its memory is its
// own: the real engine with the bench app, the offline model and a SQLite file, and an auth
// function that takes the user from a header (so each bench client is its own person and session).
// Page-call limits are raised so the benchmark measures the path, not the throttle.
// Run: node --expose-gc --import tsx bench/lib/bench-server.ts --data <folder>
// Prints "BENCH_SERVER_READY <origin> <port>". Over IPC, { type: "gc", id } runs a full collection and
// answers { type: "memory", id, ...process.memoryUsage() }; { type: "loop-delay", id } answers the
// event loop's delay since the last such request ({ id, p50, p99, max } in ms) and starts again.
import { join, resolve } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { createHostServer, mcpChatHost, policies } from "@mcp-chat-host/host";
import { pino } from "pino";
import { benchApp } from "./bench-app";
import { exitWhenAsked } from "./child-process";

/** The header carrying the bench user's id. */
export const BENCH_USER_HEADER = "x-bench-user";

const { values } = parseArgs({
  options: {
    data: { type: "string" },
    "calls-per-second": { type: "string" },
    // A node of a cluster (bench/benchmarks/many-sessions-cluster.ts): a shared `postgres://`
    // store, Redis, and the node's id; without them one node on its own SQLite file.
    store: { type: "string" },
    redis: { type: "string" },
    "node-id": { type: "string" },
    // The balancer's origin, which the clients' pages then come from.
    "public-origin": { type: "string" },
  },
});
if (values.data === undefined) {
  console.error("Usage: bench-server.ts --data <folder> [--calls-per-second <n>]");
  process.exit(2);
}
const perSecond = Number(values["calls-per-second"] ?? 1_000);
const app = benchApp();
const server = createHostServer({
  store: values.store ?? `sqlite:${join(resolve(values.data), "bench.db")}`,
  ...(values.redis === undefined ? {} : { redisUrl: values.redis }),
  ...(values["node-id"] === undefined ? {} : { nodeId: values["node-id"] }),
  ...(values["public-origin"] === undefined ? {} : { publicOrigin: values["public-origin"] }),
  model: "offline",
  logger: pino({ level: process.env["LOG_LEVEL"] ?? "warn" }, pino.destination(2)),
  auth: {
    mode: "function",
    authenticate(request) {
      const id = request.headers[BENCH_USER_HEADER];
      return typeof id === "string" && /^[a-z0-9-]{1,64}$/.test(id) ? { id, name: id } : null;
    },
  },
  // The default (20 per second, bursts of 40 per card) is for people; the bench must not be
  // throttled, or it would measure the limiter's refusals.
  pageCallRate: { perSecond, burst: perSecond },
  session(session) {
    const chat = session.chat();
    mcpChatHost(chat, [app], { onAppCall: policies.annotations() });
  },
});
const { url, port } = await server.listen({ port: 0, host: "127.0.0.1" });
// The origin people use (the balancer's, with --public-origin), then the node's own port.
console.log(`BENCH_SERVER_READY ${url} ${port}`);

// How late the event loop runs: a synchronous wait (a disk flush, a long computation) delays every
// session's work, and shows here even when the CPU is idle.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

process.on("message", (message: unknown) => {
  const { type, id } = (message ?? {}) as { type?: unknown; id?: unknown };
  if (type === "gc") {
    // Exposed by --expose-gc; without it the answer is the memory as it is.
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({ type: "memory", id, ...process.memoryUsage() });
  } else if (type === "loop-delay") {
    // Since the last reading, in ms; then starts over.
    process.send?.({
      type: "loop-delay",
      id,
      p50: loopDelay.percentile(50) / 1e6,
      p99: loopDelay.percentile(99) / 1e6,
      max: loopDelay.max / 1e6,
    });
    loopDelay.reset();
  }
});

exitWhenAsked(() => server.close());
