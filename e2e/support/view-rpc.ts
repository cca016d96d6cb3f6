// Speaks JSON-RPC from inside a view, as any script in it could: the attack specs send requests
// the view's own code never would (another source's tool, a `javascript:` link) and read what
// the host answers. Requests go to `window.parent`, the view's channel (a port) to the host page.
import type { Frame } from "@playwright/test";

/** What the host answered: a result or a JSON-RPC error. */
export interface ViewAnswer {
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/**
 * Sends one JSON-RPC request from the view and waits for the answer with the same id.
 *
 * @param view - the view's frame (see `viewFrame`).
 * @param method - the method, such as `tools/call` or `ui/open-link`.
 * @param params - its params.
 * @param timeoutMs - how long to wait for the answer.
 * @returns the answer.
 * @throws when no answer comes within `timeoutMs`.
 */
export async function requestFromView(
  view: Frame,
  method: string,
  params: Record<string, unknown>,
  timeoutMs = 10_000,
): Promise<ViewAnswer> {
  return view.evaluate(
    ({ method, params, timeoutMs }) =>
      new Promise<ViewAnswer>((resolve, reject) => {
        // A string id the view's own App (which counts from 0) never uses.
        const id = `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}`;
        const onMessage = (event: MessageEvent) => {
          const data = event.data as { jsonrpc?: unknown; id?: unknown } & ViewAnswer;
          if (event.source !== window.parent || data?.jsonrpc !== "2.0" || data.id !== id) return;
          clearTimeout(timer);
          window.removeEventListener("message", onMessage);
          resolve({
            ...(data.result === undefined ? {} : { result: data.result }),
            ...(data.error === undefined ? {} : { error: data.error }),
          });
        };
        const timer = setTimeout(() => {
          window.removeEventListener("message", onMessage);
          reject(new Error(`The host did not answer ${method} within ${timeoutMs} ms.`));
        }, timeoutMs);
        window.addEventListener("message", onMessage);
        window.parent.postMessage({ jsonrpc: "2.0", id, method, params }, "*");
      }),
    { method, params, timeoutMs },
  );
}
