// An attacker's web page on its own origin: a plain HTTP server on 127.0.0.1 with a port of its
// own, serving one empty page. Same site as the host (so the browser sends the host's SameSite
// cookie along, the strongest case for the host's Origin checks) and a local address (Chromium's
// Local Network Access refuses a public page, such as a `data:` URL, any request to 127.0.0.1, which
// would make an attack fail for the wrong reason).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A running attacker server. */
export interface AttackerServer {
  /** The attacker page's origin, `http://127.0.0.1:<port>`. */
  origin: string;
  /** The attacker's page. */
  url: string;
  /** Stops the server and waits for it to close. */
  close(): Promise<void>;
}

const attackerHtml = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Attacker</title></head>
<body><p>An attacker's page.</p></body>
</html>
`;

/**
 * Starts the attacker's server on 127.0.0.1, port 0. Every path answers the same page.
 *
 * @returns the server's origin and a way to close it.
 */
export async function startAttackerServer(): Promise<AttackerServer> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(attackerHtml);
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
