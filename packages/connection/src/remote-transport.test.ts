// When a failed Streamable HTTP connect means "use SSE". The fallback itself runs against real
// HTTP servers in mcp-client-session.test.ts.
import { SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { connectRemote, shouldFallBackToSse } from "./remote-transport";

function httpError(status: number): SdkHttpError {
  return new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "refused", {
    status,
    statusText: "",
  });
}

describe("shouldFallBackToSse", () => {
  it.each([400, 404, 405])("falls back on HTTP %i", (status) => {
    expect(shouldFallBackToSse(httpError(status))).toBe(true);
  });

  it.each([401, 403, 500, 502])("does not fall back on HTTP %i", (status) => {
    expect(shouldFallBackToSse(httpError(status))).toBe(false);
  });

  it("does not fall back on errors without an HTTP status", () => {
    expect(shouldFallBackToSse(new SdkError(SdkErrorCode.RequestTimeout, "slow"))).toBe(false);
    expect(shouldFallBackToSse(new TypeError("fetch failed"))).toBe(false);
  });
});

describe("connectRemote", () => {
  it("tries Streamable HTTP, then SSE with a fresh transport, and rethrows other failures", async () => {
    const kinds: string[] = [];
    const result = await connectRemote(
      { url: "http://127.0.0.1:1/mcp" },
      async (_transport, kind) => {
        kinds.push(kind);
        if (kind === "streamable-http") throw httpError(405);
        return "connected";
      },
    );
    expect(result).toEqual({ connected: "connected", kind: "sse" });
    expect(kinds).toEqual(["streamable-http", "sse"]);
    const failure = connectRemote({ url: "http://127.0.0.1:1/mcp" }, async () => {
      throw httpError(401);
    });
    await expect(failure).rejects.toMatchObject({ status: 401 });
  });

  it("sends every request through the endpoint's fetch when it has one", async () => {
    const fetched: string[] = [];
    const fetch = (input: string | URL, init?: RequestInit) => {
      fetched.push(`${init?.method ?? "GET"} ${String(input)}`);
      return Promise.resolve(new Response(null, { status: 202 }));
    };
    await connectRemote({ url: "http://pinned.invalid/mcp", fetch }, async (transport) => {
      await transport.start();
      await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      await transport.close();
    });
    // The POST, and the GET of the server's event stream the SDK opens after `initialized`.
    expect(fetched[0]).toBe("POST http://pinned.invalid/mcp");
    expect(fetched.every((request) => request.endsWith(" http://pinned.invalid/mcp"))).toBe(true);
  });
});
