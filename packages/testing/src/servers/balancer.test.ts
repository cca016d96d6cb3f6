import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { Socket } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startBalancer, type RunningBalancer } from "./balancer";

/** A stand-in node: answers HTTP with its name and the user it was given, and echoes WebSockets. */
interface Node {
  name: string;
  server: Server;
  port: number;
  sockets: Set<Socket>;
}

async function startNode(name: string): Promise<Node> {
  const sockets = new Set<Socket>();
  const server = createServer((incoming, response) => {
    let body = "";
    incoming.on("data", (chunk: Buffer) => (body += chunk.toString()));
    incoming.on("end", () => {
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify({
          name,
          user: incoming.headers["x-forwarded-user"] ?? null,
          forwardedFor: incoming.headers["x-forwarded-for"] ?? null,
          body,
        }),
      );
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  server.on("upgrade", (incoming: IncomingMessage, socket: Socket) => {
    const user = String(incoming.headers["x-forwarded-user"] ?? "none");
    socket.write(
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
    );
    socket.write(`${name}:${user}\n`);
    socket.on("data", (chunk) => socket.write(chunk));
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: "127.0.0.1" }, resolve));
  const address = server.address();
  return { name, server, sockets, port: typeof address === "object" && address ? address.port : 0 };
}

async function stopNode(node: Node): Promise<void> {
  for (const socket of node.sockets) socket.destroy();
  await new Promise<void>((resolve) => node.server.close(() => resolve()));
}

interface Answer {
  status: number;
  json: { name: string; user: string | null; forwardedFor: string | null; body: string } | null;
  text: string;
}

function get(url: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: body === undefined ? "GET" : "POST", headers });
    outgoing.on("response", (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => {
        let json: Answer["json"] = null;
        try {
          json = JSON.parse(text) as Answer["json"];
        } catch {
          // a plain-text answer of the balancer itself
        }
        resolve({ status: response.statusCode ?? 0, json, text });
      });
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** Opens a WebSocket-style upgrade and resolves with the socket and the first line it received. */
function upgrade(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ socket: Socket; first: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {
      headers: { connection: "Upgrade", upgrade: "websocket", ...headers },
    });
    outgoing.on("upgrade", (_response, socket: Socket, head: Buffer) => {
      let text = head.toString();
      const check = () => {
        if (text.includes("\n")) resolve({ socket, first: text.split("\n")[0] ?? "" });
      };
      socket.on("data", (chunk: Buffer) => {
        text += chunk.toString();
        check();
      });
      check();
    });
    outgoing.on("response", (response) => reject(new Error(`no upgrade: ${response.statusCode}`)));
    outgoing.on("error", reject);
    outgoing.end();
  });
}

let nodeA: Node;
let nodeB: Node;
let balancer: RunningBalancer;
beforeEach(async () => {
  nodeA = await startNode("a");
  nodeB = await startNode("b");
  balancer = await startBalancer({
    backends: [
      { name: "a", port: nodeA.port },
      { name: "b", port: nodeB.port },
    ],
  });
});
afterEach(async () => {
  await balancer.close();
  if (nodeA.server.listening) await stopNode(nodeA);
  if (nodeB.server.listening) await stopNode(nodeB);
});

describe("the balancer", () => {
  it("spreads requests over the nodes and forwards the client's address", async () => {
    const names = new Set<string>();
    for (let index = 0; index < 4; index += 1) {
      const answer = await get(balancer.url);
      names.add(answer.json?.name ?? "");
      expect(answer.json?.forwardedFor).toBe("127.0.0.1");
    }
    expect([...names].sort()).toEqual(["a", "b"]);
  });

  it("pins a request to a node by cookie or by header, and passes bodies", async () => {
    for (let index = 0; index < 3; index += 1) {
      expect((await get(balancer.url, { cookie: "x-test-node=b" })).json?.name).toBe("b");
      expect((await get(balancer.url, { "x-test-node": "a" })).json?.name).toBe("a");
    }
    expect((await get(balancer.url, { "x-test-node": "a" }, "hello")).json?.body).toBe("hello");
  });

  it("sets the user header from the user cookie and drops one the client sent", async () => {
    const withCookie = await get(balancer.url, {
      cookie: "other=1; x-test-user=alice",
      "x-forwarded-user": "mallory",
    });
    expect(withCookie.json?.user).toBe("alice");
    const forged = await get(balancer.url, { "x-forwarded-user": "mallory" });
    expect(forged.json?.user).toBeNull();
  });

  it("sets the user and pin cookies from its own choose page", async () => {
    const answer = await new Promise<{ status: number; cookies: string[]; location: string }>(
      (resolve, reject) => {
        const outgoing = request(`${balancer.url}/__balancer/choose?user=carol&node=b`);
        outgoing.on("response", (response) => {
          response.resume();
          resolve({
            status: response.statusCode ?? 0,
            cookies: response.headers["set-cookie"] ?? [],
            location: response.headers.location ?? "",
          });
        });
        outgoing.on("error", reject);
        outgoing.end();
      },
    );
    expect(answer.status).toBe(303);
    expect(answer.location).toBe("/");
    expect(answer.cookies.map((cookie) => cookie.split(";")[0])).toEqual([
      "x-test-user=carol",
      "x-test-node=b",
    ]);
  });

  it("uses the default user when there is no user cookie", async () => {
    const withDefault = await startBalancer({
      backends: [{ name: "a", port: nodeA.port }],
      defaultUser: "operator",
    });
    try {
      expect((await get(withDefault.url)).json?.user).toBe("operator");
    } finally {
      await withDefault.close();
    }
  });

  it("skips a node that refuses connections, and says so when none is left", async () => {
    await stopNode(nodeA);
    for (let index = 0; index < 3; index += 1) {
      expect((await get(balancer.url, { "x-test-node": "a" })).json?.name).toBe("b");
    }
    await stopNode(nodeB);
    const none = await get(balancer.url);
    expect(none.status).toBe(503);
    expect(none.text).toMatch(/No host node is reachable/);
  });

  it("proxies WebSocket upgrades with the user set; a dead node's socket closes and the next goes elsewhere", async () => {
    const first = await upgrade(balancer.url, { cookie: "x-test-node=a; x-test-user=bob" });
    expect(first.first).toBe("a:bob");
    expect(balancer.connections()).toMatchObject({ a: 1 });
    const closed = new Promise<void>((resolve) => first.socket.once("close", () => resolve()));
    await stopNode(nodeA);
    await closed;
    const again = await upgrade(balancer.url, { cookie: "x-test-node=a; x-test-user=bob" });
    expect(again.first).toBe("b:bob");
    expect(balancer.upgrades()).toEqual({ a: 1, b: 1 });
    again.socket.destroy();
  });
});
