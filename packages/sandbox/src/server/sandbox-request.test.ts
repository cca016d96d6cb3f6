import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildProxyUrl } from "../params/proxy-params";
import { proxyScript } from "../proxy/proxy-script";
import { handleSandboxRequest } from "./sandbox-request";

const hostOrigin = "http://127.0.0.1:3000";

describe("handleSandboxRequest", () => {
  it("serves the proxy page with the spec-default CSP when the URL declares none", () => {
    const response = handleSandboxRequest("/proxy", { hostOrigin });
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
      "Content-Security-Policy":
        "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
        "img-src 'self' data:; media-src 'self' data:; connect-src 'none'; object-src 'none'; " +
        "frame-src 'none'; base-uri 'self'; frame-ancestors http://127.0.0.1:3000",
    });
    expect(response.body).toContain(
      '<meta name="mcp-host-origin" content="http://127.0.0.1:3000">',
    );
    expect(response.body).toContain('<meta name="mcp-frame-allow" content="">');
    expect(response.body).toContain('<script src="/proxy.js"></script>');
    expect(response.body).not.toMatch(/<script>(?!<\/script>)/); // no inline script
    expect(response.rejected).toEqual([]);
  });

  it("builds the CSP and the inner allow value from the URL and reports what it dropped", () => {
    const url = new URL(
      buildProxyUrl("http://127.0.0.1:41234", {
        csp: {
          connectDomains: ["https://api.example.com", "https://a.com; script-src *", hostOrigin],
        },
        permissions: { camera: {}, clipboardWrite: {} },
      }),
    );
    const response = handleSandboxRequest(`${url.pathname}${url.search}`, { hostOrigin });
    const header = response.headers["Content-Security-Policy"] ?? "";
    expect(header).toContain("connect-src https://api.example.com;");
    expect(header).not.toContain("a.com;");
    expect(header).not.toContain("script-src *");
    expect(response.body).toContain(
      '<meta name="mcp-frame-allow" content="camera; clipboard-write">',
    );
    expect(response.rejected.map((entry) => entry.code)).toEqual([
      "unsafe_character",
      "names_host_origin",
    ]);
  });

  it("falls back to the defaults on a garbage query instead of failing", () => {
    const response = handleSandboxRequest("/proxy?csp=%E0%A4%A&permissions=%7B", { hostOrigin });
    expect(response.status).toBe(200);
    expect(response.headers["Content-Security-Policy"]).toContain("connect-src 'none'");
    expect(response.body).toContain('<meta name="mcp-frame-allow" content="">');
    expect(response.rejected.map((entry) => entry.field)).toEqual(["csp", "permissions"]);
  });

  it("serves the proxy script and 404s everything else", () => {
    const script = handleSandboxRequest("/proxy.js?x=1", { hostOrigin });
    expect(script.status).toBe(200);
    expect(script.headers["Content-Type"]).toBe("text/javascript; charset=utf-8");
    expect(script.headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(script.body).toBe(proxyScript);
    for (const path of [
      "/",
      "/proxy/",
      "/PROXY",
      "/proxy.html",
      "/sandbox.html",
      "/api/session",
      "//evil.example/proxy",
    ]) {
      const response = handleSandboxRequest(path, { hostOrigin });
      expect(response.status, path).toBe(404);
      expect(response.headers["X-Content-Type-Options"]).toBe("nosniff");
    }
    expect(handleSandboxRequest("/proxy", { hostOrigin, method: "POST" }).status).toBe(405);
    expect(handleSandboxRequest("/proxy", { hostOrigin, method: "head" }).status).toBe(200);
  });

  it("escapes the values it writes into the page", () => {
    const response = handleSandboxRequest("/proxy", {
      hostOrigin: 'http://127.0.0.1:3000/"><script>',
    });
    expect(response.body).toContain('content="http://127.0.0.1:3000"');
  });
});

describe("handleSandboxRequest behind a real HTTP listener", () => {
  let server: Server;
  let sandboxOrigin = "";

  beforeAll(async () => {
    server = createServer((request, response) => {
      const answer = handleSandboxRequest(request.url ?? "/", {
        hostOrigin,
        method: request.method ?? "GET",
      });
      response.writeHead(answer.status, answer.headers);
      response.end(request.method === "HEAD" ? undefined : answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    sandboxOrigin = `http://127.0.0.1:${address.port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("sends the CSP as an HTTP header and the script with its type", async () => {
    const page = await fetch(
      buildProxyUrl(sandboxOrigin, { csp: { resourceDomains: ["https://cdn.example.com"] } }),
    );
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain(
      "script-src 'self' 'unsafe-inline' https://cdn.example.com",
    );
    expect(await page.text()).toContain("/proxy.js");
    const script = await fetch(`${sandboxOrigin}/proxy.js`);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await script.text()).toBe(proxyScript);
    expect((await fetch(`${sandboxOrigin}/elsewhere`)).status).toBe(404);
  });
});
