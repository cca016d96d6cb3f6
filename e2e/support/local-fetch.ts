// HTTP requests from the test process to the sandbox's names. A browser resolves every
// `*.localhost` name to this machine itself (RFC 6761); Node asks the system resolver, which may
// not know them. So this connects to 127.0.0.1 and sends the name in the Host header, exactly as
// the browser's request arrives.
import { request as httpRequest } from "node:http";

/** An HTTP answer. */
export interface LocalResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * GETs an http URL on this machine (10 s at most).
 *
 * @param address - `http://proxy.localhost:41234/proxy?...` or any other loopback URL.
 * @returns the status, the headers (lower-case names, repeated ones joined) and the body.
 */
export function fetchLocal(address: string): Promise<LocalResponse> {
  const url = new URL(address);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: "127.0.0.1",
        port: Number(url.port || 80),
        path: `${url.pathname}${url.search}`,
        headers: { host: url.host, connection: "close" },
        agent: false,
        timeout: 10_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined)
              headers[name] = Array.isArray(value) ? value.join(", ") : value;
          }
          resolve({
            status: response.statusCode ?? 0,
            headers,
            body: Buffer.concat(chunks).toString("utf8"),
          });
        });
      },
    );
    request.on("timeout", () => request.destroy(new Error(`No answer from ${address} in 10 s.`)));
    request.on("error", reject);
    request.end();
  });
}

/**
 * The view's signed URL that a proxy page carries (`<meta name="mcp-view-url">`).
 *
 * @param proxyPage - the proxy page's HTML.
 * @returns the URL.
 * @throws when the page carries none.
 */
export function viewUrlOfProxyPage(proxyPage: string): string {
  const match = /<meta name="mcp-view-url" content="([^"]*)">/.exec(proxyPage);
  if (match?.[1] === undefined) throw new Error("The proxy page names no view URL.");
  return match[1].replace(/&amp;/g, "&");
}
