import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { serveMcpOverHttp } from "./fixtures/serve-mcp-over-http";
import type { HttpMcpServer } from "./fixtures/serve-mcp-over-http";
import { McpApp } from "./mcp-app";
import { defaultClientName, mcpClient } from "./mcp-client";
import type { Source } from "./source";
import { SourceError } from "./source-error";
import { toolResourceUri } from "./tool-metadata";
import { readViewResource } from "./view-resource";

const PAGE = "<!doctype html><p>weather</p>";

const weather = new McpApp({
  name: "weather",
  html: PAGE,
  csp: { connectDomains: ["https://api.weather.example"] },
  tools: [
    {
      name: "forecast",
      description: "Shows the forecast.",
      inputSchema: { city: z.string() },
      handler: (args) => ({ content: [{ type: "text", text: `Sunny in ${String(args.city)}` }] }),
    },
  ],
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serveWeather(): Promise<HttpMcpServer> {
  const server = await serveMcpOverHttp(() => weather.createServer());
  cleanups.push(() => server.close());
  return server;
}

async function openSource(factory: { open(): Promise<Source> }): Promise<Source> {
  const source = await factory.open();
  cleanups.push(() => source.close());
  return source;
}

function invalid(run: () => unknown): SourceError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).code).toBe("invalid_options");
    return error as SourceError;
  }
  throw new Error("expected an error");
}

describe("mcpClient validation", () => {
  it("needs an http:// or https:// URL", () => {
    for (const url of ["ftp://example.com/mcp", "example.com/mcp", "", "https://", 42]) {
      expect(invalid(() => mcpClient(url as string)).message).toBe(
        "`url` must be an http:// or https:// URL.",
      );
    }
    expect(mcpClient("HTTPS://example.com/mcp").url).toBe("HTTPS://example.com/mcp");
  });

  it("needs headers as an object of strings or a function", () => {
    const message =
      "`headers` must be an object of header names and string values, or a function returning one.";
    for (const headers of [3, "Authorization: x", ["a"], { Authorization: 1 }, null]) {
      expect(
        invalid(() => mcpClient("https://example.com/mcp", { headers: headers as never })).message,
      ).toBe(message);
    }
    expect(() =>
      mcpClient("https://example.com/mcp", { headers: { Authorization: "Key k" } }),
    ).not.toThrow();
    expect(() =>
      mcpClient("https://example.com/mcp", { headers: () => ({ Authorization: "Key k" }) }),
    ).not.toThrow();
  });

  it("needs a positive timeout and a non-empty name", () => {
    for (const timeout of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, "60"]) {
      expect(
        invalid(() => mcpClient("https://example.com/mcp", { timeout: timeout as number })).message,
      ).toBe("`timeout` must be a positive number of seconds.");
    }
    expect(invalid(() => mcpClient("https://example.com/mcp", { name: " " })).message).toBe(
      "`name` must be a non-empty string.",
    );
  });
});

describe("mcpClient names", () => {
  it("defaults to the URL without scheme, query, fragment and trailing slashes", () => {
    expect(defaultClientName("https://example.com/mcp")).toBe("example.com/mcp");
    expect(defaultClientName("http://localhost:3001/mcp/?token=1#top")).toBe("localhost:3001/mcp");
    expect(defaultClientName("https://example.com//")).toBe("example.com");
    expect(defaultClientName("https://example.com#x")).toBe("example.com");
    const client = mcpClient("https://connect.example.com/sales/mcp/");
    expect(client.key).toBe("connect.example.com/sales/mcp");
    expect(client.kind).toBe("connection");
    expect(client.timeout).toBe(60);
  });

  it("uses the name and timeout given", () => {
    const client = mcpClient("https://example.com/mcp", { name: "sales", timeout: 5 });
    expect(client.key).toBe("sales");
    expect(client.timeout).toBe(5);
  });
});

describe("mcpClient over Streamable HTTP", () => {
  it("sends nothing before the first use", async () => {
    const server = await serveWeather();
    const source = await openSource(mcpClient(server.url));
    expect(source.key).toBe(`127.0.0.1:${new URL(server.url).port}/mcp`);
    expect(source.cachedTools()).toBeUndefined();
    expect(server.requests).toEqual([]);
    await source.tools();
    expect(server.requests.length).toBeGreaterThan(0);
    // A server of the 2026-07-28 revision is found with server/discover.
    expect(server.requests[0]?.rpcMethod).toBe("server/discover");
  });

  it("falls back to initialize for a server of the 2025 revision", async () => {
    const server = await serveMcpOverHttp(() => weather.createServer(), "legacy");
    cleanups.push(() => server.close());
    const source = await openSource(mcpClient(server.url));
    const [forecast] = await source.tools();
    expect(forecast?.name).toBe("forecast");
    expect(server.requests.map((request) => request.rpcMethod)).toContain("initialize");
    const initialize = server.requests.find((request) => request.rpcMethod === "initialize");
    expect(JSON.stringify(initialize?.body)).toContain(
      '"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}',
    );
    expect((await source.callTool("forecast", { city: "Rome" })).content).toEqual([
      { type: "text", text: "Sunny in Rome" },
    ]);
  });

  it("ends the server's session with an HTTP DELETE when it closes", async () => {
    const server = await serveMcpOverHttp(() => weather.createServer(), "session");
    cleanups.push(() => server.close());
    const source = await mcpClient(server.url).open();
    await source.tools();
    const sessionId = server.requests.find(
      (request) => request.headers["mcp-session-id"] !== undefined,
    )?.headers["mcp-session-id"];
    expect(sessionId).toBeTruthy();
    expect(server.requests.some((request) => request.method === "DELETE")).toBe(false);
    await source.close();
    const deletes = server.requests.filter((request) => request.method === "DELETE");
    expect(deletes).toHaveLength(1);
    expect(deletes[0]?.headers["mcp-session-id"]).toBe(sessionId);
    expect(source.closed).toBe(true);
  });

  it("declares the MCP Apps extension when it connects", async () => {
    const server = await serveWeather();
    const source = await openSource(mcpClient(server.url));
    await source.tools();
    const first = JSON.stringify(server.requests[0]?.body);
    expect(first).toContain(
      '"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}',
    );
  });

  it("lists tools, calls one and loads its view", async () => {
    const server = await serveWeather();
    const source = await openSource(mcpClient(server.url, { name: "weather" }));
    const [forecast] = await source.tools();
    expect(forecast?.name).toBe("forecast");
    expect(toolResourceUri(forecast!)).toBe("ui://weather");
    const result = await source.callTool("forecast", { city: "Oslo" });
    expect(result.content).toEqual([{ type: "text", text: "Sunny in Oslo" }]);
    const view = await readViewResource(source, "ui://weather");
    expect(view.html).toBe(PAGE);
    expect(view.meta).toEqual({ csp: { connectDomains: ["https://api.weather.example"] } });
  });

  it("sends fixed headers with every request", async () => {
    const server = await serveWeather();
    const source = await openSource(mcpClient(server.url, { headers: { "X-Api-Key": "secret" } }));
    await source.tools();
    await source.callTool("forecast", { city: "Oslo" });
    const posts = server.requests.filter((request) => request.method === "POST");
    expect(posts.length).toBeGreaterThanOrEqual(2);
    for (const request of posts) expect(request.headers["x-api-key"]).toBe("secret");
    // The protocol's own headers are not replaced by the caller's.
    for (const request of posts) expect(request.headers["content-type"]).toBe("application/json");
  });

  it("calls a headers function before each request", async () => {
    const server = await serveWeather();
    let calls = 0;
    const source = await openSource(
      mcpClient(server.url, {
        headers: async () => ({ Authorization: `Bearer token-${(calls += 1)}` }),
      }),
    );
    await source.tools();
    await source.callTool("forecast", { city: "Oslo" });
    const seen = server.requests.map((request) => request.headers["authorization"]);
    expect(seen.length).toBe(calls);
    expect(new Set(seen).size).toBe(calls);
    expect(seen.at(-1)).toBe(`Bearer token-${calls}`);
  });

  it("reports a server it cannot reach as unavailable, and tries again on the next use", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const source = await openSource(mcpClient(`http://127.0.0.1:${port}/mcp`, { timeout: 5 }));
    await expect(source.tools()).rejects.toMatchObject({
      code: "unavailable",
      message: /^Couldn't reach 127.0.0.1/,
    });
    expect(source.closed).toBe(false);
    await expect(source.tools()).rejects.toMatchObject({ code: "unavailable" });
  });
});
