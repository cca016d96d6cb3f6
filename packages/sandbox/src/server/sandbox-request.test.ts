import { createHash } from "node:crypto";
import { createServer, request as httpRequest, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildProxyUrl, type ProxyParams } from "../params/proxy-params";
import { signProxyUrl } from "../params/signed-proxy-url";
import { proxyScript, proxyScriptHash } from "../proxy/proxy-script";
import { viewLoaderScript } from "../view/view-script";
import { handleSandboxRequest, type SandboxRequestOptions } from "./sandbox-request";

const hostOrigin = "http://127.0.0.1:3000";
const template = "http://{source}.localhost:41234";
const proxyOrigin = "http://proxy.localhost:41234";
const options: SandboxRequestOptions = {
  hostOrigins: [hostOrigin, "http://localhost:3000"],
  originTemplate: template,
  signingKey: "a signing key of at least thirty-two bytes",
};

/** A proxy URL as the host hands it out: signed with the sandbox's key. */
function proxyUrl(params: ProxyParams = {}, origin = proxyOrigin): Promise<string> {
  return signProxyUrl(origin, { host: hostOrigin, view: "notes", ...params }, options.signingKey);
}

function metaContent(body: string, name: string): string {
  const match = new RegExp(`<meta name="${name}" content="([^"]*)">`).exec(body);
  return (match?.[1] ?? "").replace(/&amp;/g, "&");
}

/** The proxy page for a query, and the view page its signed view URL leads to. */
async function proxyAndView(params: ProxyParams = {}) {
  const proxy = await handleSandboxRequest(await proxyUrl(params), options);
  const viewUrl = metaContent(proxy.body, "mcp-view-url");
  const view = await handleSandboxRequest(viewUrl, options);
  return { proxy, viewUrl, view };
}

describe("handleSandboxRequest on the proxy origin", () => {
  it("serves the proxy page with its own strict CSP and the view's signed URL", async () => {
    const { proxy, viewUrl } = await proxyAndView();
    expect(proxy.status).toBe(200);
    expect(proxy.headers).toMatchObject({
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
      "Origin-Agent-Cluster": "?1",
      "Content-Security-Policy":
        `default-src 'none'; script-src 'sha256-${await proxyScriptHash()}'; style-src 'unsafe-inline'; ` +
        "frame-src http://notes.localhost:41234/view; connect-src 'none'; img-src 'none'; " +
        "object-src 'none'; base-uri 'none'; form-action 'none'; " +
        "frame-ancestors http://127.0.0.1:3000",
    });
    expect(new URL(viewUrl).origin).toBe("http://notes.localhost:41234");
    expect(proxy.body).toContain('<meta name="mcp-host-origin" content="http://127.0.0.1:3000">');
    expect(proxy.body).toContain('<meta name="mcp-frame-allow" content="">');
    // One script, inline, exactly the one the CSP's hash admits.
    expect(proxy.body.match(/<script[\s>]/g)).toHaveLength(1);
    expect(proxy.body).toContain(`<script>${proxyScript}</script>`);
    const digest = createHash("sha256").update(proxyScript).digest("base64");
    expect(await proxyScriptHash()).toBe(digest);
    expect(proxy.rejected).toEqual([]);
  });

  it("frames only for one of the host's origins, and only a source's view", async () => {
    for (const host of ["http://evil.example", "http://127.0.0.1:3001", "nonsense"]) {
      const response = await handleSandboxRequest(await proxyUrl({ host }), options);
      expect(response.status, host).toBe(403);
      expect(response.body).not.toContain("mcp-view-url");
      expect(response.rejected.map((entry) => entry.code)).toContain("not_a_host_origin");
    }
    const viaLocalhost = await handleSandboxRequest(
      await proxyUrl({ host: "http://localhost:3000" }),
      options,
    );
    expect(viaLocalhost.headers["Content-Security-Policy"]).toContain(
      "frame-ancestors http://localhost:3000",
    );
    for (const view of ["proxy", "Notes", "a.b", ""]) {
      expect((await handleSandboxRequest(await proxyUrl({ view }), options)).status, view).toBe(
        404,
      );
    }
  });

  it("puts the inner allow value on the page and reports what it dropped", async () => {
    const response = await handleSandboxRequest(
      await proxyUrl({
        csp: {
          connectDomains: [
            "https://api.example.com",
            "https://a.com; script-src *",
            hostOrigin,
            "http://proxy.localhost:41234",
          ],
        },
        permissions: { camera: {}, clipboardWrite: {} },
      }),
      options,
    );
    expect(response.body).toContain(
      '<meta name="mcp-frame-allow" content="camera; clipboard-write">',
    );
    expect(response.rejected.map((entry) => entry.code)).toEqual([
      "unsafe_character",
      "names_host_origin",
      "names_sandbox_origin",
    ]);
  });

  it("refuses an unsigned, altered or expired proxy URL with 403 and says which", async () => {
    const signed = new URL(
      await proxyUrl({ csp: { connectDomains: ["https://api.example.com"] } }),
    );
    const looser = new URL(signed);
    looser.searchParams.set(
      "csp",
      Buffer.from('{"connectDomains":["https://evil.example"]}').toString("base64url"),
    );
    const unsigned = buildProxyUrl(proxyOrigin, { host: hostOrigin, view: "notes" });
    for (const url of [looser.toString(), unsigned]) {
      const response = await handleSandboxRequest(url, options);
      expect(response.status, url).toBe(403);
      expect(response.body).toMatch(/^not_signed: /);
      expect(response.body).not.toContain("mcp-view-url");
      expect(response.headers["Content-Type"]).toBe("text/plain; charset=utf-8");
      expect(response.rejected.map((entry) => entry.code)).toEqual(["not_signed"]);
    }
    const dayLater = await handleSandboxRequest(signed, {
      ...options,
      now: () => Date.now() + 24 * 60 * 60 * 1000 + 1000,
    });
    expect(dayLater.status).toBe(403);
    expect(dayLater.body).toMatch(/^expired: /);
    expect(dayLater.rejected.map((entry) => entry.code)).toEqual(["expired"]);
    // The honest URL still opens.
    expect((await handleSandboxRequest(signed, options)).status).toBe(200);
  });

  it("serves the proxy script and 404s everything else", async () => {
    const script = await handleSandboxRequest(`${proxyOrigin}/proxy.js?x=1`, options);
    expect(script.status).toBe(200);
    expect(script.headers["Content-Type"]).toBe("text/javascript; charset=utf-8");
    expect(script.body).toBe(proxyScript);
    for (const path of [
      "/",
      "/proxy/",
      "/PROXY",
      "/view",
      "/sandbox.html",
      "//evil.example/proxy",
    ]) {
      const response = await handleSandboxRequest(`${proxyOrigin}${path}`, options);
      expect(response.status, path).toBe(404);
      expect(response.headers["Content-Security-Policy"]).toBe("default-src 'none'; sandbox");
    }
    expect(
      (await handleSandboxRequest(await proxyUrl(), { ...options, method: "POST" })).status,
    ).toBe(405);
    expect(
      (await handleSandboxRequest(await proxyUrl(), { ...options, method: "head" })).status,
    ).toBe(200);
    for (const origin of ["http://127.0.0.1:41234", "http://localhost:41234", "http://x.example"]) {
      expect((await handleSandboxRequest(`${origin}/proxy`, options)).status, origin).toBe(421);
    }
  });

  it("escapes the values it writes into the page", async () => {
    const response = await handleSandboxRequest(await proxyUrl({ host: hostOrigin }), {
      ...options,
      hostOrigins: ['http://127.0.0.1:3000/"><script>'],
    });
    expect(response.body).toContain('content="http://127.0.0.1:3000"');
    expect(response.body).not.toContain('"><script>');
  });
});

describe("handleSandboxRequest on a view origin", () => {
  it("serves the loader with the view's CSP as its header, embeddable by the proxy only", async () => {
    const { view } = await proxyAndView({
      csp: {
        connectDomains: ["https://api.example.com"],
        resourceDomains: ["https://cdn.example.com"],
      },
    });
    expect(view.status).toBe(200);
    const csp = view.headers["Content-Security-Policy"] ?? "";
    expect(csp).toContain("connect-src https://api.example.com;");
    expect(csp).toContain(
      "script-src 'self' 'unsafe-inline' 'unsafe-eval' blob: data: https://cdn.example.com;",
    );
    expect(csp).toContain("form-action 'none'");
    expect(csp).toContain("frame-ancestors http://proxy.localhost:41234 http://127.0.0.1:3000");
    expect(csp).toMatch(/; require-trusted-types-for 'script'$/);
    expect(view.headers["X-DNS-Prefetch-Control"]).toBe("off");
    expect(view.body).toContain(`<script>${viewLoaderScript}</script>`);
    expect(view.body).toContain(
      '<meta name="mcp-proxy-origin" content="http://proxy.localhost:41234">',
    );
  });

  it("refuses a view URL it did not sign, or one moved to another view origin", async () => {
    const { viewUrl } = await proxyAndView({
      csp: { connectDomains: ["https://api.example.com"] },
    });
    const looser = new URL(viewUrl);
    looser.searchParams.set(
      "csp",
      Buffer.from('{"connectDomains":["https://evil.example"]}').toString("base64url"),
    );
    const moved = new URL(viewUrl);
    moved.hostname = "other.localhost";
    for (const url of [looser, moved, new URL("http://notes.localhost:41234/view")]) {
      const response = await handleSandboxRequest(url, options);
      expect(response.status, url.toString()).toBe(403);
      expect(response.body).not.toContain("<script");
    }
    const otherKey = await handleSandboxRequest(viewUrl, {
      ...options,
      signingKey: "another signing key of thirty-two bytes!",
    });
    expect(otherKey.status).toBe(403);
    expect((await handleSandboxRequest("http://notes.localhost:41234/proxy", options)).status).toBe(
      404,
    );
  });
});

describe("handleSandboxRequest behind a real HTTP listener", () => {
  let server: Server;
  let port = 0;

  function get(
    host: string,
    path: string,
  ): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        { host: "127.0.0.1", port, path, headers: { host } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks).toString("utf8"),
            }),
          );
        },
      );
      request.on("error", reject);
      request.end();
    });
  }

  beforeAll(async () => {
    server = createServer((request, response) => {
      void handleSandboxRequest(
        new URL(request.url ?? "/", `http://${request.headers.host ?? ""}`),
        {
          ...options,
          originTemplate: `http://{source}.localhost:${port}`,
          method: request.method ?? "GET",
        },
      ).then((answer) => {
        response.writeHead(answer.status, answer.headers);
        response.end(request.method === "HEAD" ? undefined : answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    port = address.port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("sends both CSPs as HTTP headers and the script with its type", async () => {
    const page = await get(
      `proxy.localhost:${port}`,
      `/proxy?${new URL(await proxyUrl({}, `http://proxy.localhost:${port}`)).searchParams.toString()}`,
    );
    expect(page.status).toBe(200);
    expect(page.headers["content-security-policy"]).toContain(
      `frame-src http://notes.localhost:${port}/view`,
    );
    const viewUrl = new URL(metaContent(page.body, "mcp-view-url"));
    const view = await get(viewUrl.host, `${viewUrl.pathname}${viewUrl.search}`);
    expect(view.status).toBe(200);
    expect(view.headers["content-security-policy"]).toContain("connect-src 'none'");
    const script = await get(`proxy.localhost:${port}`, "/proxy.js");
    expect(script.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(script.body).toBe(proxyScript);
    expect((await get(`proxy.localhost:${port}`, "/elsewhere")).status).toBe(404);
  });
});
