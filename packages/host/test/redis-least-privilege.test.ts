// Redis as docs/deployment.md asks operators to run it: the default user off, the nodes' ACL
// user with only the commands, keys and channels the host uses (the rules are read from the
// doc, so the doc cannot drift from what works), and any other client of the same Redis a user
// of its own that cannot write into the nodes' stream.
import {
  startPostgres,
  startRedis,
  type RunningPostgres,
  type RunningRedis,
} from "@mcp-chat-host/testing";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAt, startNode, type TestNode } from "./cluster-support";

const password = "least-privilege-p4ss";
const monitorPassword = "monitor-p4ss";
let redis: RunningRedis;
let postgres: RunningPostgres;
const nodes: TestNode[] = [];

/** The ACL rules of the nodes' user, as docs/deployment.md writes them. */
function documentedRules(): string[] {
  const doc = readFileSync(new URL("../../../docs/deployment.md", import.meta.url), "utf8");
  const line = /^user chat-node on >\S+ (.+)$/m.exec(doc);
  if (line === null) throw new Error("docs/deployment.md has no `user chat-node on >…` line.");
  return line[1]!.trim().split(/\s+/);
}

/** A raw client of the test's Redis, signed in as the given user. */
async function redisClient(user: string, secret: string) {
  const { createClient } = await import("redis");
  const client = createClient({
    url: `redis://${user}:${encodeURIComponent(secret)}@127.0.0.1:${redis.port}`,
  });
  client.on("error", () => undefined);
  await client.connect();
  return client;
}

beforeAll(async () => {
  [redis, postgres] = await Promise.all([
    startRedis({
      password,
      user: "chat-node",
      rules: documentedRules(),
      acl: [
        ["default", "off"],
        ["monitor", "on", `>${monitorPassword}`, "+ping", "+info", "+acl|log"],
      ],
    }),
    startPostgres(),
  ]);
  const shared = { databaseUrl: await postgres.createDatabase(), redisUrl: redis.url };
  nodes.push(await startNode("node-a", shared));
  nodes.push(await startNode("node-b", shared));
}, 120_000);

afterAll(async () => {
  for (const node of nodes) await node.close();
  await redis?.stop();
  await postgres?.stop();
});

describe("Redis with the documented least-privilege ACL", () => {
  it("carries a person's change from a tab on node A to their tab on node B", async () => {
    const [nodeA, nodeB] = nodes as [TestNode, TestNode];
    const cookie = await signInAt(nodeA);
    const here = await nodeA.connect(cookie, "tab-here");
    const there = await nodeB.connect(cookie, "tab-there");
    await here.value("session:hello", {});
    await there.value("session:hello", {});
    const created = await here.value("conversation:create", { title: "Least privilege" });
    await there.next("conversations:changed", ({ conversations }) =>
      conversations.some((item) => item.id === created.conversation.id),
    );
    for (const node of nodes) {
      expect(await (await fetch(`${node.url}/readyz`)).json()).toMatchObject({
        ok: true,
        redis: "ok",
      });
      expect(JSON.stringify(node.logs)).not.toMatch(/NOPERM|no permissions/i);
    }
    // Redis refused the nodes nothing: its log of denied commands is empty.
    const monitor = await redisClient("monitor", monitorPassword);
    try {
      expect(await monitor.sendCommand(["ACL", "LOG"])).toEqual([]);
    } finally {
      monitor.destroy();
    }
  }, 60_000);

  it("refuses a client without a password, and another client's user cannot write the nodes' stream", async () => {
    const { createClient } = await import("redis");
    const anonymous = createClient({ url: `redis://127.0.0.1:${redis.port}` });
    anonymous.on("error", () => undefined);
    await anonymous.connect();
    try {
      await expect(anonymous.sendCommand(["XLEN", "mcp-chat-host"])).rejects.toThrow(/NOAUTH/);
    } finally {
      anonymous.destroy();
    }
    const monitor = await redisClient("monitor", monitorPassword);
    try {
      expect(await monitor.ping()).toBe("PONG");
      await expect(
        monitor.sendCommand(["XADD", "mcp-chat-host", "*", "forged", "event"]),
      ).rejects.toThrow(/NOPERM/);
    } finally {
      monitor.destroy();
    }
    // The nodes' own user has only the host's keys: not another application's, nor FLUSHALL.
    const node = await redisClient("chat-node", password);
    try {
      await expect(node.sendCommand(["SET", "billing:total", "0"])).rejects.toThrow(/NOPERM/);
      await expect(node.sendCommand(["FLUSHALL"])).rejects.toThrow(/NOPERM/);
      await expect(node.sendCommand(["CONFIG", "SET", "requirepass", ""])).rejects.toThrow(
        /NOPERM/,
      );
    } finally {
      node.destroy();
    }
  });
});
