import { describe, expect, it } from "vitest";
import { handleSandboxRequest, type SandboxRequestOptions } from "./sandbox-request";

const hostOrigin = "http://127.0.0.1:3000";
const options: SandboxRequestOptions = {
  hostOrigins: [hostOrigin],
  originTemplate: "http://{source}.localhost:41234",
  signingKey: "a signing key of at least thirty-two bytes",
};

describe("the warm document", () => {
  it("on the proxy's origin runs nothing and holds one inert frame on the named view origin", async () => {
    const warm = await handleSandboxRequest(
      "http://proxy.localhost:41234/warm?view=notes",
      options,
    );
    expect(warm.status).toBe(200);
    expect(warm.headers["Content-Type"]).toBe("text/html; charset=utf-8");
    expect(warm.headers["Content-Security-Policy"]).toBe(
      `default-src 'none'; frame-src http://notes.localhost:41234/warm; frame-ancestors ${hostOrigin}`,
    );
    expect(warm.headers["Cache-Control"]).toBe("no-store");
    expect(warm.body).not.toMatch(/<script/i);
    const frames = [...warm.body.matchAll(/<iframe [^>]*>/g)].map((match) => match[0]);
    expect(frames).toEqual([
      '<iframe src="http://notes.localhost:41234/warm" sandbox="allow-same-origin" tabindex="-1" aria-hidden="true" width="0" height="0">',
    ]);
  });

  it("names no frame for a missing or invalid view label", async () => {
    for (const url of [
      "http://proxy.localhost:41234/warm",
      "http://proxy.localhost:41234/warm?view=proxy",
      "http://proxy.localhost:41234/warm?view=%22%3E%3Cscript%3E",
    ]) {
      const warm = await handleSandboxRequest(url, options);
      expect(warm.status).toBe(200);
      expect(warm.body).not.toMatch(/<iframe|<script/i);
      expect(warm.headers["Content-Security-Policy"]).toBe(
        `default-src 'none'; frame-ancestors ${hostOrigin}`,
      );
    }
  });

  it("on a view origin is empty and may be framed only by the proxy and the chat page", async () => {
    const warm = await handleSandboxRequest(
      "http://notes.localhost:41234/warm?view=other",
      options,
    );
    expect(warm.status).toBe(200);
    expect(warm.body).not.toMatch(/<iframe|<script/i);
    expect(warm.headers["Content-Security-Policy"]).toBe(
      `default-src 'none'; frame-ancestors http://proxy.localhost:41234 ${hostOrigin}`,
    );
  });

  it("never lists the host's IPv6 origin, which Chromium refuses with a console error", async () => {
    const warm = await handleSandboxRequest("http://notes.localhost:41234/warm", {
      ...options,
      hostOrigins: [hostOrigin, "http://localhost:3000", "http://[::1]:3000"],
    });
    expect(warm.headers["Content-Security-Policy"]).toBe(
      `default-src 'none'; frame-ancestors http://proxy.localhost:41234 ${hostOrigin} http://localhost:3000`,
    );
  });

  it("is not served on other origins or methods", async () => {
    expect((await handleSandboxRequest("http://example.com/warm", options)).status).toBe(421);
    const post = await handleSandboxRequest("http://proxy.localhost:41234/warm", {
      ...options,
      method: "POST",
    });
    expect(post.status).toBe(405);
  });
});
