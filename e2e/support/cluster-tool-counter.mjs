#!/usr/bin/env node
// Counts the tool calls a stdio MCP server receives, at the server: it sits between the host and
// the server, passes every byte through unchanged, and appends one line `<tool>` to the counts
// file for each JSON-RPC `tools/call` request the host sends. A node of the cluster runs it as the
// server's command, so a test can prove a node restored cards without calling anything.
// Usage: node cluster-tool-counter.mjs <counts file> <command> [args...]
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";

const [countsFile, command, ...args] = process.argv.slice(2);
if (countsFile === undefined || command === undefined) {
  console.error("Usage: cluster-tool-counter.mjs <counts file> <command> [args...]");
  process.exit(2);
}
const server = spawn(command, args, { stdio: ["pipe", "inherit", "inherit"] });
let pending = "";
process.stdin.on("data", (chunk) => {
  server.stdin.write(chunk);
  pending += chunk.toString("utf8");
  let newline = pending.indexOf("\n");
  while (newline >= 0) {
    const line = pending.slice(0, newline);
    pending = pending.slice(newline + 1);
    try {
      const message = JSON.parse(line);
      if (message?.method === "tools/call" && typeof message.params?.name === "string") {
        appendFileSync(countsFile, `${message.params.name}\n`);
      }
    } catch {
      // Not a whole JSON line: pass it through uncounted.
    }
    newline = pending.indexOf("\n");
  }
});
process.stdin.on("end", () => server.stdin.end());
server.on("exit", (code, signal) => process.exit(code ?? (signal === null ? 0 : 1)));
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => server.kill(signal));
