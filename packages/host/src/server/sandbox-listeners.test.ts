import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "@mcp-chat-host/testing";
import { handleSandboxRequest } from "@mcp-chat-host/sandbox/server";
import { afterEach, describe, expect, it } from "vitest";
import { sourceLabel } from "./sandbox-placement";
import {
  memoryLogger,
  rawRequest,
  runCleanups,
  signIn,
  startLayer,
} from "../testing/http-layer-support";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(() => runCleanups(cleanups));

/** The `mcp-view-url` of a proxy page. */
function viewUrlOf(body: string): URL {
  const match = /<meta name="mcp-view-url" content="([^"]*)">/.exec(body);
  return new URL((match?.[1] ?? "").replace(/&amp;/g, "&"));
}

/** A GET on the sandbox listener with the Host header of the URL (the system may not resolve it). */
function sandboxGet(url: URL, headers: Record<string, string> = {}) {
  return rawRequest(Number(url.port), `${url.pathname}${url.search}`, {
    headers: { host: url.host, ...headers },
  });
}

describe("the local sandbox listener", () => {
  it("serves every source from one port: a proxy origin, and a view origin per source", async () => {
    const started = await startLayer(cleanups);
    const basic = await started.layer.urls.sandboxPlacement("basic", undefined, {});
    const monitor = await started.layer.urls.sandboxPlacement("system-monitor", undefined, {});
    expect(basic.origin).toMatch(/^http:\/\/proxy\.localhost:\d+$/);
    expect(monitor.origin).toBe(basic.origin);
    const port = new URL(basic.origin).port;
    expect(port).not.toBe(String(started.port));

    const proxyUrl = new URL(basic.proxyUrl);
    expect(proxyUrl.searchParams.get("host")).toBe(started.origin);
    expect(proxyUrl.searchParams.get("view")).toBe("basic");
    const proxy = await sandboxGet(proxyUrl);
    expect(proxy.status).toBe(200);
    expect(proxy.headers["content-type"]).toContain("text/html");
    const proxyCsp = String(proxy.headers["content-security-policy"]);
    expect(proxyCsp).toContain(`frame-src http://basic.localhost:${port}/view;`);
    expect(proxyCsp).toContain(`frame-ancestors ${started.origin}`);
    expect(proxy.headers["x-content-type-options"]).toBe("nosniff");

    const viewUrl = viewUrlOf(proxy.body);
    expect(viewUrl.origin).toBe(`http://basic.localhost:${port}`);
    const view = await sandboxGet(viewUrl);
    expect(view.status).toBe(200);
    const viewCsp = String(view.headers["content-security-policy"]);
    expect(viewCsp).toContain("connect-src 'none'");
    expect(viewCsp).toContain("form-action 'none'");
    expect(viewCsp).toContain(`frame-ancestors ${basic.origin} ${started.origin}`);
    const monitorView = viewUrlOf((await sandboxGet(new URL(monitor.proxyUrl))).body);
    expect(monitorView.origin).toBe(`http://system-monitor.localhost:${port}`);

    const script = await sandboxGet(new URL("/proxy.js", basic.origin));
    expect(script.status).toBe(200);
    expect(script.headers["content-type"]).toContain("javascript");
  });

  it("serves nothing but the sandbox: no host routes, no sign-in, no other methods, no foreign Host", async () => {
    const started = await startLayer(cleanups);
    const { cookie } = await signIn(started);
    const { origin } = await started.layer.urls.sandboxPlacement("basic", undefined, {});
    const sandboxPort = Number(new URL(origin).port);
    const host = new URL(origin).host;
    const withCookie = { host, cookie };
    for (const target of [
      "/",
      "/healthz",
      "/index.html",
      "/view",
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
    for (const foreign of [
      `rebind.example:${sandboxPort}`,
      `127.0.0.1:${sandboxPort}`,
      `localhost:${sandboxPort}`,
      `proxy.localhost:${started.port}`,
      started.host,
    ]) {
      const response = await rawRequest(sandboxPort, "/proxy", { headers: { host: foreign } });
      expect(response.status, foreign).toBe(421);
    }
  });

  it("lets only the page's own origin embed the proxy, and refuses a page on another machine", async () => {
    const started = await startLayer(cleanups);
    const viaLocalhost = await started.layer.urls.sandboxPlacement(
      "basic",
      `localhost:${started.port}`,
      {},
    );
    const proxy = await sandboxGet(new URL(viaLocalhost.proxyUrl));
    expect(String(proxy.headers["content-security-policy"])).toContain(
      `frame-ancestors http://localhost:${started.port}`,
    );
    // An unknown Host falls back to the host's own origin.
    const foreign = await started.layer.urls.sandboxPlacement("basic", "evil.example:80", {});
    expect(new URL(foreign.proxyUrl).searchParams.get("host")).toBe(started.origin);
    // A proxy URL naming another page origin gets no proxy page.
    const forged = new URL(viaLocalhost.proxyUrl);
    forged.searchParams.set("host", "http://evil.example");
    expect((await sandboxGet(forged)).status).toBe(403);

    const remote = await startLayer(cleanups, {
      publicOrigin: "https://chat.example.com",
      auth: { mode: "token" },
    });
    await expect(
      remote.layer.urls.sandboxPlacement("basic", "chat.example.com", {}),
    ).rejects.toMatchObject({ code: "bad_option", message: /sandboxOriginTemplate/ });
  });

  it("names the view's declared CSP in the proxy URL and drops what may not be declared", async () => {
    const { logger, lines } = memoryLogger();
    const started = await startLayer(cleanups, { logger });
    const placement = await started.layer.urls.sandboxPlacement("basic", undefined, {
      csp: { connectDomains: ["https://api.example.com", started.origin] },
    });
    const sandboxOrigin = new URL(placement.origin);
    const proxy = await sandboxGet(new URL(placement.proxyUrl));
    const view = await sandboxGet(viewUrlOf(proxy.body));
    expect(String(view.headers["content-security-policy"])).toContain(
      "connect-src https://api.example.com;",
    );
    expect(
      String(view.headers["content-security-policy"])
        .split("; ")
        .filter((directive) => directive.includes(started.origin)),
    ).toEqual([`frame-ancestors ${placement.origin} ${started.origin}`]);
    expect(lines.some((line) => String(line.msg).includes("dropped CSP"))).toBe(true);
    expect(sandboxOrigin.hostname).toBe("proxy.localhost");
  });

  it("signs each proxy URL it hands out; an unsigned, altered or expired one gets 403 and no view URL", async () => {
    const { logger, lines } = memoryLogger();
    let now = Date.UTC(2026, 0, 1);
    const started = await startLayer(cleanups, { logger, now: () => now });
    const placement = await started.layer.urls.sandboxPlacement("basic", undefined, {
      csp: { connectDomains: ["https://api.example.com"] },
    });
    const honest = new URL(placement.proxyUrl);
    expect(honest.searchParams.get("sig")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Number(honest.searchParams.get("exp"))).toBe(now / 1000 + 24 * 60 * 60);
    const looser = new URL(honest);
    looser.searchParams.set(
      "csp",
      Buffer.from('{"connectDomains":["https://evil.example"]}').toString("base64url"),
    );
    const unsigned = new URL(honest);
    unsigned.searchParams.delete("sig");
    unsigned.searchParams.delete("exp");
    for (const url of [looser, unsigned]) {
      const response = await sandboxGet(url);
      expect(response.status, url.search).toBe(403);
      expect(response.body).toMatch(/^not_signed: /);
      expect(response.body).not.toContain("mcp-view-url");
    }
    expect((await sandboxGet(honest)).status).toBe(200);
    now += 24 * 60 * 60 * 1000;
    const expired = await sandboxGet(honest);
    expect(expired.status).toBe(403);
    expect(expired.body).toMatch(/^expired: /);
    const refusals = lines.filter((line) => String(line.msg).includes("refused a proxy URL"));
    expect(refusals.map((line) => line["code"])).toEqual(["not_signed", "not_signed", "expired"]);
    // The log keeps neither the signature nor the query.
    const logged = JSON.stringify(lines);
    expect(logged).not.toContain(honest.searchParams.get("sig"));
  });

  it("answers 500 without details when the sandbox handler throws", async () => {
    const started = await startLayer(cleanups, {
      handleSandboxRequest: () => {
        throw new Error("internal detail");
      },
    });
    const { proxyUrl } = await started.layer.urls.sandboxPlacement("basic", undefined, {});
    const response = await sandboxGet(new URL(proxyUrl));
    expect(response.status).toBe(500);
    expect(response.body).not.toContain("internal detail");
  });

  it("keeps its port across restarts when the port memory gives it back", async () => {
    let remembered: number | undefined;
    const ports = {
      preferred: () => remembered,
      remember: (port: number) => {
        remembered = port;
      },
    };
    const first = await startLayer(cleanups, { sandboxPorts: ports });
    const firstOrigin = (await first.layer.urls.sandboxPlacement("basic", undefined, {})).origin;
    expect(remembered).toBe(Number(new URL(firstOrigin).port));
    await first.layer.close();
    const second = await startLayer(cleanups, { sandboxPorts: ports });
    expect((await second.layer.urls.sandboxPlacement("basic", undefined, {})).origin).toBe(
      firstOrigin,
    );
  });

  it("needs the host to listen first", async () => {
    const { createHttpLayer } = await import("./http-layer");
    const layer = createHttpLayer();
    cleanups.push(() => layer.close());
    await expect(layer.urls.sandboxPlacement("basic", undefined, {})).rejects.toMatchObject({
      code: "not_listening",
    });
  });
});

describe("sandbox origin template", () => {
  it("computes the proxy and view origins and names exactly the proxy in the page's frame-src", async () => {
    const webRoot = mkdtempSync(path.join(tmpdir(), "mch-web-"));
    cleanups.push(() => rmSync(webRoot, { recursive: true, force: true }));
    writeFileSync(path.join(webRoot, "index.html"), "<!doctype html><title>host</title>");
    const started = await startLayer(cleanups, {
      sandboxOriginTemplate: "https://{source}.sandbox.example.com",
      webRoot,
    });
    const basic = await started.layer.urls.sandboxPlacement("basic", undefined, {});
    expect(basic.origin).toBe("https://proxy.sandbox.example.com");
    expect(new URL(basic.proxyUrl).searchParams.get("view")).toBe("basic");
    const mine = await started.layer.urls.sandboxPlacement("My Server", undefined, {});
    expect(new URL(mine.proxyUrl).searchParams.get("view")).toMatch(/^my-server-[0-9a-f]{8}$/);
    const { cookie } = await signIn(started);
    const page = await rawRequest(started.port, "/", {
      headers: { host: started.host, cookie, accept: "text/html" },
    });
    expect(String(page.headers["content-security-policy"])).toContain(
      "frame-src https://proxy.sandbox.example.com;",
    );
  });

  it("serves the template's names itself on its own port, with a key every node shares", async () => {
    const sandboxPort = await freePort();
    const template = "https://{source}.sandbox.example.com";
    const secret = "a shared secret of the cluster, 32 characters or more";
    const nodeA = await startLayer(cleanups, {
      sandboxOriginTemplate: template,
      sandboxListenerPort: sandboxPort,
      sessionSecret: secret,
      publicOrigin: "https://chat.example.com",
    });
    const placement = await nodeA.layer.urls.sandboxPlacement("basic", undefined, {});
    const proxyUrl = new URL(placement.proxyUrl);
    const get = (url: URL, port: number) =>
      rawRequest(port, `${url.pathname}${url.search}`, { headers: { host: url.host } });
    const proxy = await get(proxyUrl, sandboxPort);
    expect(proxy.status).toBe(200);
    expect(String(proxy.headers["content-security-policy"])).toContain(
      "frame-src https://basic.sandbox.example.com/view;",
    );
    // The view URL one node signed opens on another node with the same secret.
    const viewUrl = viewUrlOf(proxy.body);
    expect(viewUrl.origin).toBe("https://basic.sandbox.example.com");
    const otherPort = await freePort();
    await startLayer(cleanups, {
      sandboxOriginTemplate: template,
      sandboxListenerPort: otherPort,
      sessionSecret: secret,
      publicOrigin: "https://chat.example.com",
    });
    expect((await get(viewUrl, otherPort)).status).toBe(200);
    // Only the template's names: the host's own name gets nothing there.
    const wrongHost = await rawRequest(sandboxPort, "/", { headers: { host: "chat.example.com" } });
    expect(wrongHost.status).toBe(421);
  });

  it("signs with sandboxSigningKey, so a sandbox served elsewhere with that key opens the card", async () => {
    const template = "https://{source}.sandbox.example.com";
    const sandboxSigningKey = "the deployment's sandbox key, 32 bytes or more";
    const started = await startLayer(cleanups, {
      sandboxOriginTemplate: template,
      sandboxSigningKey,
      sessionSecret: "a session secret that is not the sandbox key at all",
    });
    const { proxyUrl } = await started.layer.urls.sandboxPlacement("basic", undefined, {});
    const answer = (signingKey: string) =>
      handleSandboxRequest(proxyUrl, {
        hostOrigins: [started.origin],
        originTemplate: template,
        signingKey,
      });
    expect((await answer(sandboxSigningKey)).status).toBe(200);
    expect((await answer("some other key of thirty-two bytes or more")).status).toBe(403);
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
  it("keeps DNS labels and makes other keys, and the proxy's label, distinct labels", () => {
    expect(sourceLabel("basic-react")).toBe("basic-react");
    const underscore = sourceLabel("a_b");
    const dot = sourceLabel("a.b");
    expect(underscore).toMatch(/^a-b-[0-9a-f]{8}$/);
    expect(dot).toMatch(/^a-b-[0-9a-f]{8}$/);
    expect(underscore).not.toBe(dot);
    expect(sourceLabel("proxy")).toMatch(/^proxy-[0-9a-f]{8}$/);
    expect(sourceLabel("Ünïcödé!!")).toMatch(/^[a-z0-9-]{1,63}$/);
    expect(sourceLabel("x".repeat(200)).length).toBeLessThanOrEqual(63);
  });
});
