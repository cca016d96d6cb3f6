import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sourceLabel } from "./sandbox-listeners";
import { memoryLogger, rawRequest, runCleanups, signIn, startLayer } from "./test-support";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(() => runCleanups(cleanups));

describe("local sandbox listeners", () => {
  it("opens one listener per source on its own port, serving the proxy with a CSP header", async () => {
    const started = await startLayer(cleanups);
    const basic = await started.layer.urls.sandboxOriginFor("basic");
    const monitor = await started.layer.urls.sandboxOriginFor("system-monitor");
    expect(basic).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(monitor).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new Set([basic, monitor, started.origin]).size).toBe(3);
    expect(await started.layer.urls.sandboxOriginFor("basic")).toBe(basic);

    const sandboxPort = Number(new URL(basic).port);
    const proxy = await rawRequest(sandboxPort, "/proxy", {
      headers: { host: new URL(basic).host },
    });
    expect(proxy.status).toBe(200);
    expect(proxy.headers["content-type"]).toContain("text/html");
    const csp = String(proxy.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`frame-ancestors ${started.origin}`);
    expect(proxy.headers["x-content-type-options"]).toBe("nosniff");
    expect(proxy.body).toContain(started.origin);
    const script = await rawRequest(sandboxPort, "/proxy.js", {
      headers: { host: new URL(basic).host },
    });
    expect(script.status).toBe(200);
    expect(script.headers["content-type"]).toContain("javascript");
  });

  it("serves nothing but the proxy: no host routes, no sign-in, no other methods, no foreign Host", async () => {
    const started = await startLayer(cleanups);
    const { cookie } = await signIn(started);
    const origin = await started.layer.urls.sandboxOriginFor("basic");
    const sandboxPort = Number(new URL(origin).port);
    const host = new URL(origin).host;
    const withCookie = { host, cookie };
    for (const target of [
      "/",
      "/healthz",
      "/index.html",
      `/?token=${new URL(started.layer.signInUrl()).searchParams.get("token")}`,
      "/socket.io/?EIO=4&transport=polling",
    ]) {
      const response = await rawRequest(sandboxPort, target, { headers: withCookie });
      expect(response.status, target).toBe(404);
      expect(response.headers["set-cookie"]).toBeUndefined();
    }
    const post = await rawRequest(sandboxPort, "/proxy", {
      method: "POST",
      headers: withCookie,
      body: "x",
    });
    expect(post.status).toBe(405);
    const rebound = await rawRequest(sandboxPort, "/proxy", {
      headers: { host: `rebind.example:${sandboxPort}` },
    });
    expect(rebound.status).toBe(421);
    const otherPort = await rawRequest(sandboxPort, "/proxy", { headers: { host: started.host } });
    expect(otherPort.status).toBe(421);
  });

  it("shares the page's host name so the sandbox stays same-site", async () => {
    const started = await startLayer(cleanups);
    const viaLocalhost = await started.layer.urls.sandboxOriginFor(
      "basic",
      `localhost:${started.port}`,
    );
    expect(viaLocalhost).toMatch(/^http:\/\/localhost:\d+$/);
    const proxy = await rawRequest(Number(new URL(viaLocalhost).port), "/proxy", {
      headers: { host: new URL(viaLocalhost).host },
    });
    expect(String(proxy.headers["content-security-policy"])).toContain(
      `frame-ancestors http://localhost:${started.port}`,
    );
    const foreign = await started.layer.urls.sandboxOriginFor("basic", "evil.example:80");
    expect(foreign).toMatch(/^http:\/\/127\.0\.0\.1:/);
  });

  it("logs CSP values the sandbox dropped", async () => {
    const { logger, lines } = memoryLogger();
    const started = await startLayer(cleanups, {
      logger,
      handleSandboxRequest: () => ({
        status: 200,
        headers: {},
        body: "proxy",
        rejected: [{ value: "https://a.com; script-src *" }],
      }),
    });
    const origin = await started.layer.urls.sandboxOriginFor("basic");
    const response = await rawRequest(Number(new URL(origin).port), "/proxy", {
      headers: { host: new URL(origin).host },
    });
    expect(response.body).toBe("proxy");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(lines.some((line) => String(line.msg).includes("dropped CSP"))).toBe(true);
  });

  it("answers 500 without details when the sandbox handler throws", async () => {
    const started = await startLayer(cleanups, {
      handleSandboxRequest: () => {
        throw new Error("internal detail");
      },
    });
    const origin = await started.layer.urls.sandboxOriginFor("basic");
    const response = await rawRequest(Number(new URL(origin).port), "/proxy", {
      headers: { host: new URL(origin).host },
    });
    expect(response.status).toBe(500);
    expect(response.body).not.toContain("internal detail");
  });

  it("needs the host to listen first", async () => {
    const { createHttpLayer } = await import("./http-layer");
    const layer = createHttpLayer();
    cleanups.push(() => layer.close());
    await expect(layer.urls.sandboxOriginFor("basic")).rejects.toMatchObject({
      code: "not_listening",
    });
  });
});

describe("sandbox origin template", () => {
  it("computes one origin per source and names the template in the page's frame-src", async () => {
    const webRoot = mkdtempSync(path.join(tmpdir(), "mch-web-"));
    cleanups.push(() => rmSync(webRoot, { recursive: true, force: true }));
    writeFileSync(path.join(webRoot, "index.html"), "<!doctype html><title>host</title>");
    const started = await startLayer(cleanups, {
      sandboxOriginTemplate: "https://{source}.sandbox.example.com",
      webRoot,
    });
    expect(await started.layer.urls.sandboxOriginFor("basic")).toBe(
      "https://basic.sandbox.example.com",
    );
    expect(await started.layer.urls.sandboxOriginFor("My Server")).toMatch(
      /^https:\/\/my-server-[0-9a-f]{8}\.sandbox\.example\.com$/,
    );
    const { cookie } = await signIn(started);
    const page = await rawRequest(started.port, "/", {
      headers: { host: started.host, cookie, accept: "text/html" },
    });
    expect(String(page.headers["content-security-policy"])).toContain(
      "frame-src https://*.sandbox.example.com;",
    );
  });

  it("refuses a template whose first label is not {source}", async () => {
    const { createHttpLayer } = await import("./http-layer");
    for (const template of [
      "https://sandbox.example.com/{source}",
      "https://x{source}.example.com",
      "javascript:{source}",
    ]) {
      expect(() => createHttpLayer({ sandboxOriginTemplate: template }), template).toThrow(
        /sandboxOriginTemplate/,
      );
    }
  });
});

describe("sourceLabel", () => {
  it("keeps DNS labels and makes other keys distinct labels", () => {
    expect(sourceLabel("basic-react")).toBe("basic-react");
    const underscore = sourceLabel("a_b");
    const dot = sourceLabel("a.b");
    expect(underscore).toMatch(/^a-b-[0-9a-f]{8}$/);
    expect(dot).toMatch(/^a-b-[0-9a-f]{8}$/);
    expect(underscore).not.toBe(dot);
    expect(sourceLabel("Ünïcödé!!")).toMatch(/^[a-z0-9-]{1,63}$/);
    expect(sourceLabel("x".repeat(200)).length).toBeLessThanOrEqual(63);
  });
});
