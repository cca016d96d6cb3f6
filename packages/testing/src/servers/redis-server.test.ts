import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { pingRedis, startRedis, type RunningRedis } from "./redis-server";

let redis: RunningRedis | undefined;
afterEach(async () => {
  await redis?.stop();
  redis = undefined;
});

/** Sends one inline command and returns the first line of the answer. */
async function command(port: number, line: string): Promise<string> {
  const { connect } = await import("node:net");
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1" }, () => socket.write(`${line}\r\n`));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString();
      if (answer.includes("\r\n")) {
        socket.destroy();
        resolve(answer.split("\r\n")[0] ?? "");
      }
    });
    socket.once("error", reject);
  });
}

describe("startRedis", () => {
  it("runs Debian's redis-server on 127.0.0.1 and answers PING", async () => {
    redis = await startRedis();
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    expect(await pingRedis(redis.port)).toBe(true);
    expect(await command(redis.port, "SET greeting hello")).toBe("+OK");
    expect(await command(redis.port, "GET greeting")).toBe("$5");
  });

  it("asks for the password it was started with, and for the ACL user's", async () => {
    redis = await startRedis({ password: "s3cret:/@", user: "chat" });
    expect(redis.url).toBe(`redis://chat:s3cret%3A%2F%40@127.0.0.1:${redis.port}`);
    expect(await command(redis.port, "PING")).toMatch(/^-NOAUTH/);
    expect(await pingRedis(redis.port, 2_000, { user: "chat", password: "s3cret:/@" })).toBe(true);
    expect(await pingRedis(redis.port, 2_000, { password: "s3cret:/@" })).toBe(true);
    expect(await pingRedis(redis.port, 2_000, { user: "chat", password: "wrong" })).toBe(false);
  });

  it("restarts on the same port, and a killed server comes back with restart()", async () => {
    redis = await startRedis();
    const { port } = redis;
    await redis.restart();
    expect(redis.port).toBe(port);
    expect(await pingRedis(port)).toBe(true);
    await redis.kill();
    expect(await pingRedis(port, 500)).toBe(false);
    await redis.restart();
    expect(await pingRedis(port)).toBe(true);
  });

  it("says how to install Redis when the program is missing", async () => {
    await expect(startRedis({ command: "redis-server-that-is-not-installed" })).rejects.toThrow(
      /apt-get install redis-server/,
    );
  });
});

it("stop() ends the server and removes its temporary folder", async () => {
  const started = await startRedis();
  const dir = await new Promise<string>((resolve, reject) => {
    void import("node:net").then(({ connect }) => {
      const socket = connect({ port: started.port, host: "127.0.0.1" }, () =>
        socket.write("CONFIG GET dir\r\n"),
      );
      let answer = "";
      socket.on("data", (chunk) => {
        answer += chunk.toString();
        const lines = answer.split("\r\n");
        if (lines.length >= 5) {
          socket.destroy();
          resolve(lines[4] ?? "");
        }
      });
      socket.once("error", reject);
    });
  });
  expect(existsSync(dir)).toBe(true);
  await started.stop();
  expect(existsSync(dir)).toBe(false);
  expect(await pingRedis(started.port, 500)).toBe(false);
});
