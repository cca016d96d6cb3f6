// `npm run cluster`: the multi-node setup on this machine's loopback, in one command, the same one
// the cluster spec (e2e/tests/cluster.spec.ts) runs: a real PostgreSQL and Redis in temporary
// folders, two nodes of the published program (packages/mcp-chat-host/dist/cli.js, which the
// command builds first) sharing them, and a small balancer in front that plays the
// authenticating proxy (trusted-header mode). Ctrl-C stops everything and removes the folders.
// Options: --port <n> (the balancer's, default 8800), --nodes <n> (default 2), --model <spec>,
// --servers <name,name> (npm MCP servers each node runs over stdio).
import { parseArgs } from "node:util";
import { startCluster } from "../e2e/support/cluster";

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    nodes: { type: "string" },
    model: { type: "string" },
    servers: { type: "string" },
  },
});
const nodeCount = Number(values.nodes ?? 2);
if (!Number.isInteger(nodeCount) || nodeCount < 1 || nodeCount > 8) {
  console.error("--nodes must be a whole number from 1 to 8.");
  process.exit(2);
}
const port = Number(values.port ?? 8800);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error("--port must be a whole number from 0 to 65535.");
  process.exit(2);
}
const names = Array.from({ length: nodeCount }, (_, index) => String.fromCharCode(97 + index));
console.log("Starting PostgreSQL, Redis, the nodes and the balancer on 127.0.0.1...");
const cluster = await startCluster({
  nodes: names,
  port,
  defaultUser: "operator",
  servers: (values.servers ?? "").split(",").filter(Boolean),
  ...(values.model === undefined ? {} : { model: values.model }),
}).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});

const choose = `${cluster.url}/__balancer/choose`;
console.log(
  [
    "",
    "The cluster is ready.",
    "",
    `  Open ${cluster.url}/  (signed in as "operator": the balancer sets the user header)`,
    "",
    `  Another user:        ${choose}?user=bob   (a private window keeps both)`,
    `  Pin a tab to a node: ${choose}?node=${names[1] ?? "a"}   (node= with no name unpins)`,
    "",
    `  PostgreSQL  ${cluster.postgres.url}  (psql works with it)`,
    `  Redis       ${cluster.redis.url}`,
    ...cluster.nodes.map(
      (node) => `  Node ${node.name}      ${node.origin}  (pid ${node.pid() ?? "?"})`,
    ),
    "",
    "Try: kill -9 one node's pid; its tabs reconnect to the other. Ctrl-C stops everything.",
  ].join("\n"),
);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  console.log("\nStopping the balancer, the nodes, Redis and PostgreSQL...");
  cluster.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    },
  );
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
