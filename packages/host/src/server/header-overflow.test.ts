// Cookie bombs against a real layer on port 0: other pages' cookies of other names, which reach
// every port of the host's name, neither lock the page nor the socket out; past the limit the
// person gets a page that names the cookies.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cookiesInPartialHead, headerOverflowPage, maxRequestHeaderBytes } from "./header-overflow";
import {
  bindingOf,
  connectSocket,
  memoryLogger,
  rawRequest,
  runCleanups,
  signIn,
  startLayer,
} from "../testing/http-layer-support";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(() => runCleanups(cleanups));

/** `count` cookies named `bomb-<n>` of 4,000 bytes each, as another local page sets them. */
function bomb(count: number): string {
  return Array.from({ length: count }, (_, index) => `bomb-${index}=${"x".repeat(3990)}`).join(
    "; ",
  );
}

function webRoot(): string {
  const root = mkdtempSync(path.join(tmpdir(), "mch-web-"));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  writeFileSync(path.join(root, "index.html"), "<!doctype html><title>host</title><div id=root>");
  return root;
}

describe("a cookie bomb", () => {
  it("leaves the page and the socket working under five 4 KB cookies of other names", async () => {
    const started = await startLayer(cleanups, { webRoot: webRoot() });
    const { cookie } = await signIn(started);
    // Over Node's default 16 KiB, under the host's limit.
    const bombed = `${bomb(5)}; ${cookie}`;
    expect(bombed.length).toBeGreaterThan(16 * 1024);
    const page = await rawRequest(started.port, "/", {
      headers: { host: started.host, cookie: bombed, accept: "text/html" },
    });
    expect(page.status).toBe(200);
    expect(page.body).toContain("<div id=root>");
    const socket = await connectSocket(
      cleanups,
      started.origin,
      { origin: started.origin, cookie: bombed },
      { binding: bindingOf(cookie) },
    );
    expect(socket.connected).toBe(true);
  });

  it("past the limit answers 431 with a page naming the cookies, and logs no value", async () => {
    const { logger, lines } = memoryLogger();
    const started = await startLayer(cleanups, { logger });
    const { cookie } = await signIn(started);
    const bombed = `${bomb(20)}; ${cookie}`;
    expect(bombed.length).toBeGreaterThan(maxRequestHeaderBytes);
    const answer = await rawRequest(started.port, "/", {
      headers: { host: started.host, cookie: bombed, accept: "text/html" },
    });
    expect(answer.status).toBe(431);
    expect(answer.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(answer.body).toContain("Too many cookies for 127.0.0.1");
    expect(answer.body).toMatch(/<li>bomb-\d+ \(3\.9 KiB\)<\/li>/);
    expect(String(answer.headers["content-security-policy"])).toMatch(
      /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]+=*';/,
    );
    const warning = lines.find((line) => String(line.msg).includes("over the limit"));
    expect(warning).toBeDefined();
    expect(JSON.stringify(lines)).not.toContain("xxxxxxxxxx");
    expect(JSON.stringify(lines)).not.toContain(cookie.split("=")[1]);
    // Other malformed requests keep Node's plain answer.
    const garbage = await new Promise<string>((resolve, reject) => {
      const socket = connect(started.port, "127.0.0.1", () => socket.write("NOT HTTP\r\n\r\n"));
      let text = "";
      socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
      socket.on("close", () => resolve(text));
      socket.on("error", reject);
    });
    expect(garbage.split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request");
  });
});

describe("cookiesInPartialHead", () => {
  it("reads the Cookie pairs of the chunk, skips a pair cut at its start, largest first", () => {
    const head = Buffer.from("GET / HTTP/1.1\r\nHost: 127.0.0.1:1\r\nCookie: a=1; big=xxxx\r\n");
    expect(cookiesInPartialHead(head)).toEqual([
      { name: "big", bytes: 8 },
      { name: "a", bytes: 3 },
    ]);
    expect(cookiesInPartialHead(Buffer.from("xx; bomb-7=yyy; c=1\r\n\r\n"))).toEqual([
      { name: "bomb-7", bytes: 10 },
      { name: "c", bytes: 3 },
    ]);
    expect(cookiesInPartialHead(undefined)).toEqual([]);
  });

  it("escapes names into the page", () => {
    const { html } = headerOverflowPage("127.0.0.1", [{ name: "<b>", bytes: 10 }]);
    expect(html).toContain("&#60;b&#62;");
    expect(html).not.toContain("<b>");
  });
});
