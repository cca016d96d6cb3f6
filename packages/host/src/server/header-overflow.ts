// Cookie bombs. Cookies ignore ports, so any page on another port of the host's name (another
// local app, an attacker's page on 127.0.0.1) can set cookies the browser then sends to the host.
// Node refuses request heads over 16 KiB by default, so five 4 KB cookies of any names would
// lock the person out of the chat (431) until they clear cookies. The host reads larger heads
// (and only its own cookies in them); past even that it answers a page that says which cookies
// to clear, instead of Node's bare 431.
import { createHash } from "node:crypto";
import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "pino";

/**
 * Largest request head the host's servers read, in bytes: 64 KiB, four times Node's default, so
 * a dozen 4 KB cookies of other pages leave the chat usable. Node keeps up to this much per
 * connection while a head arrives; more would let anyone who reaches the port hold more memory.
 */
export const maxRequestHeaderBytes = 64 * 1024;

/** One cookie seen in a request, and its size (name, `=` and value) in bytes. */
export interface SeenCookie {
  name: string;
  bytes: number;
}

const cookieName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The cookies in the part of a request head Node kept when it overflowed (the last chunk read,
 * not the whole head): the `Cookie` header's pairs from that chunk, largest first. A pair cut at
 * the chunk's start is left out.
 *
 * @param raw - the bytes Node gives with the error (`rawPacket`).
 * @returns the cookies, at most 50.
 */
export function cookiesInPartialHead(raw: Buffer | undefined): SeenCookie[] {
  if (raw === undefined) return [];
  const text = raw.toString("latin1");
  const header = /(?:^|\r\n)cookie:[ \t]*/i.exec(text);
  // Without the header's start, the chunk begins inside the Cookie value: skip the cut pair.
  const start = header === null ? text.indexOf("; ") + 2 : header.index + header[0].length;
  if (header === null && start === 1) return [];
  const end = text.indexOf("\r\n", start);
  const value = text.slice(start, end === -1 ? undefined : end);
  const cookies: SeenCookie[] = [];
  for (const pair of value.split(";")) {
    const trimmed = pair.trim();
    const equals = trimmed.indexOf("=");
    const name = trimmed.slice(0, equals);
    if (equals <= 0 || !cookieName.test(name)) continue;
    cookies.push({ name, bytes: Buffer.byteLength(trimmed, "latin1") });
  }
  // The last pair may be cut by the end of the chunk; its size is then a lower bound, as said.
  return cookies.sort((a, b) => b.bytes - a.bytes).slice(0, 50);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function kibibytes(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/**
 * The page's script: lists the cookies of this name the page can see (every one a page set,
 * whatever its port; not HttpOnly ones) with their sizes, and clears them on the person's click.
 * The host's own cookie is HttpOnly, so the person stays signed in.
 */
const pageScript = `(function () {
  var list = document.getElementById("visible-cookies");
  var outcome = document.getElementById("clear-outcome");
  function visible() {
    return document.cookie === "" ? [] : document.cookie.split("; ");
  }
  function show() {
    list.replaceChildren();
    visible().forEach(function (pair) {
      var item = document.createElement("li");
      var name = pair.split("=")[0];
      item.textContent = name + " (" + (new TextEncoder().encode(pair).length / 1024).toFixed(1) + " KiB)";
      list.appendChild(item);
    });
    if (list.children.length === 0) {
      var none = document.createElement("li");
      none.textContent = "none";
      list.appendChild(none);
    }
  }
  document.getElementById("clear-cookies").addEventListener("click", function () {
    var host = location.hostname;
    var domains = [""];
    var labels = host.split(".");
    if (!/^[0-9.]+$/.test(host)) for (var i = 0; i < labels.length - 1; i++) domains.push("; Domain=" + labels.slice(i).join("."));
    visible().forEach(function (pair) {
      var name = pair.split("=")[0];
      domains.forEach(function (domain) {
        document.cookie = name + "=; Max-Age=0; Path=/" + domain;
      });
    });
    show();
    outcome.textContent = visible().length === 0
      ? "Cleared. Reload this page to open the chat."
      : "Some remain: clear them in the browser's settings as described above, then reload.";
  });
  show();
})();`;

const pageScriptHash = createHash("sha256").update(pageScript).digest("base64");

/**
 * The page a person sees when their browser sends the host more headers than it reads.
 *
 * @param hostName - the host's name as the person typed it (`127.0.0.1`).
 * @param seen - cookies in the part of the head the server read.
 * @returns the HTML and its CSP (the one inline script, by its hash).
 */
export function headerOverflowPage(
  hostName: string,
  seen: readonly SeenCookie[],
): { html: string; csp: string } {
  const name = escapeHtml(hostName);
  const seenItems =
    seen.length === 0
      ? "<li>none could be read</li>"
      : seen
          .map((cookie) => `<li>${escapeHtml(cookie.name)} (${kibibytes(cookie.bytes)})</li>`)
          .join("");
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <title>Too many cookies for ${name}</title>
    <style>body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1rem; }</style>
  </head>
  <body>
    <h1>Too many cookies for ${name}</h1>
    <p>Your browser sent the chat host more than ${kibibytes(maxRequestHeaderBytes)} of headers, almost all of it cookies for ${name}. Cookies are shared by every port of a name, so other pages on this computer can set them, and the chat cannot open until they are cleared.</p>
    <p>Clear the cookies listed below, then reload this page. If some remain, remove the site data of ${name} in the browser's settings (in Chromium: the icon left of the address, then <i>Cookies and site data</i>); you will then need to sign in again.</p>
    <h2>Cookies this page can see</h2>
    <ul id="visible-cookies" data-testid="visible-cookies"></ul>
    <p><button type="button" id="clear-cookies">Clear these cookies</button> <span id="clear-outcome" role="status"></span></p>
    <h2>Cookies the host read before it stopped</h2>
    <p>Part of the request only; the largest first, including ones this page cannot see (HttpOnly):</p>
    <ul data-testid="seen-cookies">${seenItems}</ul>
    <script>${pageScript}</script>
  </body>
</html>
`;
  return {
    html,
    csp: `default-src 'none'; script-src 'sha256-${pageScriptHash}'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  };
}

/** The name in the `Host` header, when the part Node kept holds it. */
function hostNameIn(raw: Buffer | undefined): string | undefined {
  const match = /\r\nhost:[ \t]*([^\r\n]*)\r\n/i.exec(raw?.toString("latin1") ?? "");
  const host = match?.[1]?.trim().toLowerCase() ?? "";
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0];
  return name !== undefined && /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])$/.test(name) ? name : undefined;
}

/** Node's own answers for the parse errors it would otherwise answer itself. */
function plainStatus(code: string | undefined): string {
  if (code === "HPE_HEADER_OVERFLOW") return "431 Request Header Fields Too Large";
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return "408 Request Timeout";
  return "400 Bad Request";
}

/**
 * Answers requests whose head Node could not read: a head over {@link maxRequestHeaderBytes}
 * gets the page of {@link headerOverflowPage} (431), every other parse error Node's own plain
 * answer. Replaces Node's default `clientError` handling on `server`.
 *
 * @param server - a server created with `maxHeaderSize: maxRequestHeaderBytes`.
 * @param hostName - the name the page names (the host's, as people reach it).
 * @param logger - gets one warning per refused head (sizes and names, never values).
 */
export function answerHeaderOverflow(server: Server, hostName: () => string, logger: Logger): void {
  server.on(
    "clientError",
    (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
      // A reset connection, or one whose answer has begun: nothing can be sent.
      if (error.code === "ECONNRESET" || !socket.writable) {
        socket.destroy();
        return;
      }
      if (error.code !== "HPE_HEADER_OVERFLOW") {
        socket.end(`HTTP/1.1 ${plainStatus(error.code)}\r\nConnection: close\r\n\r\n`);
        return;
      }
      const seen = cookiesInPartialHead(error.rawPacket);
      logger.warn(
        { limit: maxRequestHeaderBytes, cookies: seen.slice(0, 10) },
        "Refused a request whose headers are over the limit (a cookie bomb?); answered a page naming the cookies.",
      );
      const page = headerOverflowPage(hostNameIn(error.rawPacket) ?? hostName(), seen);
      const body = Buffer.from(page.html, "utf8");
      const head = [
        `HTTP/1.1 ${plainStatus(error.code)}`,
        "Content-Type: text/html; charset=utf-8",
        `Content-Length: ${body.length}`,
        `Content-Security-Policy: ${page.csp}`,
        "Cache-Control: no-store",
        "X-Content-Type-Options: nosniff",
        "Connection: close",
        "",
        "",
      ].join("\r\n");
      socket.end(Buffer.concat([Buffer.from(head, "latin1"), body]));
    },
  );
}
