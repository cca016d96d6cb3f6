// An attacker's web page on its own origin: a plain HTTP server on 127.0.0.1 with a port of its
// own. Same site as the host (so the browser sends the host's SameSite cookie along, the strongest
// case for the host's Origin checks) and a local address (Chromium's Local Network Access refuses
// a public page, such as a `data:` URL, any request to 127.0.0.1, which would make an attack fail
// for the wrong reason). It also stands for any other local service: it records every request
// that reaches it (method, path, cookie, body), so a test can assert that an attack sent nothing
// there, and that an honest request did arrive.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One request that reached the attacker's server. */
export interface RecordedRequest {
  method: string;
  /** Path and query. */
  path: string;
  /** The `Cookie` header, if any. */
  cookie: string | undefined;
  /** The `Origin` header, if any. */
  origin: string | undefined;
  body: string;
}

/** A running attacker server. */
export interface AttackerServer {
  /** The attacker page's origin, `http://127.0.0.1:<port>`. */
  origin: string;
  /** The attacker's page. */
  url: string;
  /** Every request received so far, oldest first. */
  readonly requests: readonly RecordedRequest[];
  /** Stops the server and waits for it to close. */
  close(): Promise<void>;
}

const attackerHtml = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Attacker</title></head>
<body><p>An attacker's page.</p></body>
</html>
`;

/** A 1×1 transparent GIF, for image requests. */
const pixel = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/** Most bytes of a request body kept. */
const maximumBodyBytes = 64 * 1024;

/**
 * Starts the attacker's server on 127.0.0.1, port 0. `/pixel.gif` answers an image; every other
 * path the same page. Answers carry `Access-Control-Allow-Origin: *`, so a request that the
 * browser lets leave also succeeds.
 *
 * @returns the server's origin, what it received, and a way to close it.
 */
export async function startAttackerServer(): Promise<AttackerServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maximumBodyBytes) chunks.push(chunk);
    });
    request.on("end", () => {
      requests.push({
        method: request.method ?? "GET",
        path: request.url ?? "/",
        cookie: request.headers.cookie,
        origin: request.headers.origin,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const cors = { "Access-Control-Allow-Origin": "*" };
      if ((request.url ?? "").startsWith("/pixel.gif")) {
        response.writeHead(200, { ...cors, "Content-Type": "image/gif" });
        response.end(pixel);
        return;
      }
      response.writeHead(200, { ...cors, "Content-Type": "text/html; charset=utf-8" });
      response.end(attackerHtml);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: `${origin}/attacker`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
