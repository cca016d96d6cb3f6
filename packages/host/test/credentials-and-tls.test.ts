// Redis and Postgres as operators run them: a Redis that asks for a
// password (and an ACL user), a Postgres that asks for one and serves TLS with its own CA. A
// wrong password or an untrusted certificate is a start refusal naming the setting to check,
// never the password, the address or the driver's words; a store that goes away mid-run tells
// the person without an address either.
import {
  startPostgres,
  startRedis,
  type RunningPostgres,
  type RunningRedis,
} from "@mcp-chat-host/testing";
import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createHostServer } from "../src/create-host-server";
import type { HostServer } from "../src/host-server-options";
import { memoryLogger } from "../src/testing/http-layer-support";
import { openStore } from "../src/store/open-store";
import { asMessageNotSaved } from "../src/turns/message-wire";

const password = "p4ss:word/@1";
let redis: RunningRedis;
let tlsRedis: RunningRedis;
let postgres: RunningPostgres;
const servers: HostServer[] = [];

beforeAll(async () => {
  [redis, tlsRedis, postgres] = await Promise.all([
    startRedis({ password, user: "chat-node" }),
    startRedis({ password, tls: true }),
    startPostgres({ password, tls: true }),
  ]);
}, 120_000);

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

afterAll(async () => {
  await Promise.all([redis?.stop(), tlsRedis?.stop(), postgres?.stop()]);
});

/** A node on an in-memory store (or the given one); its log. */
function node(options: Parameters<typeof createHostServer>[0]) {
  const log = memoryLogger();
  const server = createHostServer({ store: ":memory:", logger: log.logger, env: {}, ...options });
  return { server, log };
}

/** The start refusal's message; fails the test when the node started. */
async function refusal(server: HostServer): Promise<Error & { dependency?: string }> {
  try {
    await server.listen({ port: 0, host: "127.0.0.1" });
  } catch (error) {
    return error as Error & { dependency?: string };
  }
  servers.push(server);
  throw new Error("The node started.");
}

/**
 * Waits (bounded) until the node's socket.io adapter subscribed to its channels on Redis: a node
 * closed before that leaves the adapter's SUBSCRIBE to be rejected with no one to catch it.
 */
async function adapterSubscribed(url: string, caFile?: string): Promise<void> {
  const { createClient } = await import("redis");
  const client = createClient({
    url,
    ...(caFile === undefined ? {} : { socket: { tls: true, ca: readFileSync(caFile) } }),
  });
  client.on("error", () => undefined);
  await client.connect();
  try {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const channels = (await client.sendCommand(["PUBSUB", "CHANNELS"])) as string[];
      if (channels.length >= 2) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error("The node's adapter did not subscribe within 5 seconds.");
  } finally {
    client.destroy();
  }
}

/** What no sentence for a person or an operator may carry. */
function expectNothingInternal(message: string, port: number): void {
  expect(message).not.toContain(password);
  expect(message).not.toContain(encodeURIComponent(password));
  expect(message).not.toContain("127.0.0.1");
  expect(message).not.toContain(String(port));
  expect(message).not.toMatch(/ECONNREFUSED|WRONGPASS|\n\s+at /);
}

describe("Redis with a password", () => {
  it("lets a node in with the ACL user and password in REDIS_URL, and /readyz says Redis is ok", async () => {
    const { server } = node({ redisUrl: redis.url });
    servers.push(server);
    const { url } = await server.listen({ port: 0, host: "127.0.0.1" });
    await adapterSubscribed(redis.url);
    const readiness = await (await fetch(`${url}/readyz`)).json();
    expect(readiness).toMatchObject({ ok: true, redis: "ok" });
  });

  it("lets a node in with the default user's password alone (redis://:password@host)", async () => {
    const { server } = node({
      redisUrl: `redis://:${encodeURIComponent(password)}@127.0.0.1:${redis.port}`,
    });
    servers.push(server);
    const { url } = await server.listen({ port: 0, host: "127.0.0.1" });
    await adapterSubscribed(redis.url);
    expect(await (await fetch(`${url}/readyz`)).json()).toMatchObject({ ok: true, redis: "ok" });
  });

  it("refuses to start with a wrong password, saying so without the password", async () => {
    const { server, log } = node({
      redisUrl: `redis://chat-node:not-${encodeURIComponent(password)}@127.0.0.1:${redis.port}`,
    });
    const error = await refusal(server);
    expect(error).toMatchObject({ name: "ClusterStartError", dependency: "redis" });
    expect(error.message).toBe(
      "Redis refused the password (or user); this node does not start. Check the user and password in REDIS_URL (redis://user:password@host:port).",
    );
    expectNothingInternal(error.message, redis.port);
    // The operator's log has Redis's own words, without the password.
    const logged = JSON.stringify(log.lines);
    expect(logged).toContain("WRONGPASS");
    expect(logged).not.toContain(password);
  });

  it("refuses to start with no password at all, saying the password was refused", async () => {
    const { server } = node({ redisUrl: `redis://127.0.0.1:${redis.port}` });
    const error = await refusal(server);
    expect(error.message).toMatch(/^Redis refused the password \(or user\)/);
  });

  it("refuses a CA file with a redis:// URL: TLS needs rediss://", async () => {
    const { server } = node({ redisUrl: redis.url, redisCaFile: postgres.caFile ?? "" });
    const error = await refusal(server);
    expect(error.message).toBe(
      "A Redis CA file (--redis-ca-file, REDIS_TLS_CA_FILE) needs a rediss:// URL in REDIS_URL; this node does not start.",
    );
  });

  it("connects over TLS with rediss:// and the CA file", async () => {
    expect(tlsRedis.url).toMatch(/^rediss:\/\//);
    const { server } = node({ redisUrl: tlsRedis.url, redisCaFile: tlsRedis.caFile ?? "" });
    servers.push(server);
    const { url } = await server.listen({ port: 0, host: "127.0.0.1" });
    await adapterSubscribed(tlsRedis.url, tlsRedis.caFile);
    expect(await (await fetch(`${url}/readyz`)).json()).toMatchObject({ ok: true, redis: "ok" });
  });

  it("refuses to start when Redis's certificate is not trusted (no CA file), saying TLS failed", async () => {
    const { server } = node({ redisUrl: tlsRedis.url });
    const error = await refusal(server);
    expect(error.message).toBe(
      "The TLS connection to Redis failed (its certificate was not trusted, or it does not speak TLS on that port); this node does not start. Check rediss:// in REDIS_URL and the CA file (--redis-ca-file or REDIS_TLS_CA_FILE).",
    );
    expectNothingInternal(error.message, tlsRedis.port);
  });
});

describe("Postgres with a password and TLS", () => {
  it("opens the store over TLS with sslmode=verify-full and the CA file", async () => {
    const url = await postgres.createDatabase();
    const { server } = node({
      store: `${url}?sslmode=verify-full`,
      databaseCaFile: postgres.caFile ?? "",
    });
    servers.push(server);
    await server.listen({ port: 0, host: "127.0.0.1" });
    const conversation = await server.store.createConversation("ada", { title: "Over TLS" });
    expect(conversation.title).toBe("Over TLS");
    // The connection really is encrypted: Postgres says so for this session.
    const store = await openStore(url, { caFile: postgres.caFile ?? "" });
    try {
      const pg = (await import("pg")).default;
      const client = new pg.Client({
        connectionString: `${url}?sslmode=verify-full&sslrootcert=${encodeURIComponent(postgres.caFile ?? "")}`,
      });
      await client.connect();
      const { rows } = await client.query(
        "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
      );
      await client.end();
      expect(rows).toEqual([{ ssl: true }]);
    } finally {
      await store.close();
    }
  });

  it("refuses to start when the server's certificate is not trusted (no CA file), saying TLS failed", async () => {
    const url = await postgres.createDatabase();
    const { server } = node({ store: `${url}?sslmode=verify-full` });
    const error = await refusal(server);
    expect(error).toMatchObject({ name: "ClusterStartError", dependency: "database" });
    expect(error.message).toMatch(
      /^The TLS connection to the database server failed .*Check sslmode in DATABASE_URL and the CA file/,
    );
    expectNothingInternal(error.message, postgres.port);
  });

  it("refuses to start with a wrong password: the server refused it, not 'cannot be reached'", async () => {
    const url = await postgres.createDatabase();
    const wrong = url.replace(encodeURIComponent(password), "not-the-password");
    const { server, log } = node({ store: wrong });
    const error = await refusal(server);
    expect(error).toMatchObject({ name: "ClusterStartError", dependency: "database" });
    expect(error.message).toBe(
      "The database server refused the password (or user); this node does not start. Check the user and password in DATABASE_URL (or --database).",
    );
    expectNothingInternal(error.message, postgres.port);
    expect(error.message).not.toContain("not-the-password");
    const logged = JSON.stringify(log.lines);
    expect(logged).toContain("password authentication failed");
    expect(logged).not.toContain("not-the-password");
  });

  it("tells the person a message was not saved, without an address, when the server went away", async () => {
    const local = await startPostgres();
    try {
      const store = await openStore(await local.createDatabase());
      try {
        await local.stopAbruptly();
        const failure = await store.ensureUser("ada").then(
          () => new Error("The store answered while its server was stopped."),
          (error: unknown) => {
            try {
              asMessageNotSaved(error);
            } catch (restated) {
              return restated as Error;
            }
            return new Error("asMessageNotSaved returned");
          },
        );
        expect(failure).toMatchObject({ code: "storage_failed", retryable: true });
        expect(failure.message).toBe(
          "The message could not be saved (the database server cannot be reached); nothing was sent. Try again in a moment; if it keeps failing, ask the operator to check the database server.",
        );
        expectNothingInternal(failure.message, local.port);
      } finally {
        await store.close();
      }
    } finally {
      await local.stop();
    }
  }, 60_000);
});
