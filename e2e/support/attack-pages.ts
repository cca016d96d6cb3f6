// What an attacker's page does in the attack specs: embed a frame, listen to every message its
// window receives, post a forged `sandbox-resource-ready`, open a raw WebSocket. Each wait is
// bounded and ends on an event, never on a delay.
import { expect, type Frame, type Page } from "@playwright/test";

/** Adds an iframe with `address` to the page and waits for its load event (10 s at most). */
export async function embed(page: Page, address: string): Promise<void> {
  const outcome = await page.evaluate(
    (source) =>
      new Promise<string>((resolve) => {
        const frame = document.createElement("iframe");
        const timer = setTimeout(() => resolve("timed out"), 10_000);
        frame.addEventListener("load", () => {
          clearTimeout(timer);
          resolve("loaded");
        });
        frame.src = source;
        document.body.appendChild(frame);
      }),
    address,
  );
  expect(outcome).toBe("loaded");
}

/** Records every message the page's window receives into `window.seen`. */
export async function recordMessages(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: unknown[] = [];
    (window as unknown as { seen: unknown[] }).seen = seen;
    window.addEventListener("message", (event) => seen.push(event.data));
  });
}

/**
 * Posts a `sandbox-resource-ready` to a proxy frame's own window and waits until a listener added
 * now has heard it: any listener the proxy registered earlier has run by then.
 */
export async function postResourceReadyTo(frame: Frame): Promise<void> {
  await frame.evaluate(
    () =>
      new Promise<void>((resolve) => {
        window.addEventListener("message", () => resolve(), { once: true });
        window.postMessage(
          {
            jsonrpc: "2.0",
            method: "ui/notifications/sandbox-resource-ready",
            params: { html: "<p>attacker view</p>" },
          },
          "*",
        );
      }),
  );
}

/** Opens a raw WebSocket from a frame; "open", or "failed" when it errors or closes first. */
export async function openSocket(frame: Frame, url: string): Promise<string> {
  return frame.evaluate(
    (address) =>
      new Promise<string>((resolve) => {
        const socket = new WebSocket(address);
        const timer = setTimeout(() => {
          socket.close();
          resolve("timed out");
        }, 10_000);
        socket.addEventListener("open", () => {
          clearTimeout(timer);
          socket.close();
          resolve("open");
        });
        socket.addEventListener("error", () => {
          clearTimeout(timer);
          resolve("failed");
        });
        socket.addEventListener("close", () => {
          clearTimeout(timer);
          resolve("failed");
        });
      }),
    url,
  );
}
