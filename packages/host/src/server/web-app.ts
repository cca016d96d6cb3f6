import { existsSync } from "node:fs";
import path from "node:path";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import { sendNoticePage } from "./notice-pages";

/** What the web app router serves. */
export interface WebAppOptions {
  /** The built web app (the folder with `index.html`); absent: a page says to build it. */
  webRoot?: string | undefined;
  /** The host page's Content-Security-Policy for a request (it names the request's host). */
  cspFor(request: Request): string;
}

/**
 * A file the web app's build named by its content (`/assets/index-BcmQ9BIv.js`): it never changes
 * under its name, so a browser may keep it and reopen the app without fetching or compiling it
 * again. Anything else is revalidated.
 */
const hashedAsset = /^\/assets\/[^/]+-[\w-]{8,}\.[a-z0-9]+$/i;

/** A client-side route (`/c/123`), as opposed to a file (`/assets/app.js`). */
function isClientRoute(requestPath: string): boolean {
  const last = requestPath.split("/").pop() ?? "";
  return !last.includes(".");
}

/**
 * The router that serves the built web app: its files, and `index.html` for client-side routes
 * (so a reload on `/c/123` works). Mount it behind the auth middleware: nothing here is public.
 * Every response carries the host page's CSP; HTML is revalidated on each load so a rebuilt app
 * is picked up, while the build's content-named assets are kept by the browser for a year.
 *
 * @param options - the folder and the CSP builder.
 * @returns an Express router.
 */
export function webApp(options: WebAppOptions): Router {
  const router = express.Router();
  router.use((request: Request, response: Response, next: NextFunction) => {
    response.setHeader("Content-Security-Policy", options.cspFor(request));
    next();
  });
  const webRoot = options.webRoot === undefined ? undefined : path.resolve(options.webRoot);
  if (webRoot !== undefined) {
    router.use(
      express.static(webRoot, {
        index: false,
        redirect: false,
        fallthrough: true,
        setHeaders(response, _file) {
          const requestPath = response.req.path;
          // Behind the sign-in: the person's browser may keep it, a shared cache may not.
          response.setHeader(
            "Cache-Control",
            hashedAsset.test(requestPath) ? "private, max-age=31536000, immutable" : "no-cache",
          );
        },
      }),
    );
  }
  router.use((request: Request, response: Response, next: NextFunction) => {
    if ((request.method !== "GET" && request.method !== "HEAD") || !isClientRoute(request.path)) {
      next();
      return;
    }
    if (request.accepts(["html", "json"]) !== "html") {
      next();
      return;
    }
    const index = webRoot === undefined ? undefined : path.join(webRoot, "index.html");
    if (index === undefined || !existsSync(index)) {
      sendNoticePage(response, 503, "The web app is not built", [
        "The server is running, but it has no built web app to serve.",
        "Run `npm run build` (or start the server with `npm start`, which builds it), then reload.",
      ]);
      return;
    }
    response.setHeader("Cache-Control", "no-cache");
    response.sendFile(index);
  });
  return router;
}
