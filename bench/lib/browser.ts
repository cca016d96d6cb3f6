// Debian's Chromium, driven by playwright-core, for the benchmarks that need a real browser. The
// flags are the project's (the same as e2e/playwright.config.ts): headless, no GPU, no QUIC and
// nothing that talks to Google in the background, so timings are not disturbed by the browser's
// own traffic. No browser is downloaded.
import { accessSync, constants } from "node:fs";
import { performance } from "node:perf_hooks";
import { chromium, type Browser, type ConsoleMessage, type Page } from "playwright-core";
import { errorMessage } from "@mcp-chat-host/protocol";

/** The flags every benchmark launches Chromium with. */
const chromiumArgs: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Chromium could not be found or started. */
class BrowserLaunchError extends Error {
  /** Stable code for scripts. */
  readonly code = "browser_unavailable";
  override readonly name = "BrowserLaunchError";
}

/**
 * Where Chromium is: `CHROMIUM_PATH`, else `/usr/bin/chromium`, else `/usr/bin/chromium-browser`.
 *
 * @returns the first of those that is executable.
 * @throws {BrowserLaunchError} when none is.
 */
function chromiumPath(): string {
  const candidates = [
    process.env["CHROMIUM_PATH"],
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
  ];
  for (const candidate of candidates) {
    if (candidate === undefined || candidate === "") continue;
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not this one; try the next
    }
  }
  throw new BrowserLaunchError(
    "No Chromium found. Install Debian's chromium package or set CHROMIUM_PATH to the browser " +
      "(see scripts/ensure-chromium.mjs).",
  );
}

/**
 * Launches Chromium with {@link chromiumArgs}.
 *
 * @returns the browser; close it when done.
 * @throws {BrowserLaunchError} when Chromium is missing or does not start.
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  try {
    return await chromium.launch({ executablePath, args: [...chromiumArgs], timeout: 60_000 });
  } catch (error) {
    throw new BrowserLaunchError(
      `Chromium (${executablePath}) did not start: ${errorMessage(error)}`,
    );
  }
}

/** Now, in ms since the Unix epoch with sub-millisecond resolution (the same scale as a page's). */
function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * How far the page's clock (`performance.timeOrigin + performance.now()`) is ahead of this
 * process's ({@link epochNow}), so a time taken in Node and one taken in the page can be
 * subtracted. Both read the same system clock, but each process converts its monotonic clock to
 * epoch time once, so they can differ by a millisecond or so. Estimated like NTP: the page's time
 * against the middle of the shortest of several round trips.
 *
 * @param samples - round trips to try (bounded to 1-100).
 * @returns the offset in ms (page minus Node) and its uncertainty (half the shortest round trip).
 */
export async function pageClockOffset(
  page: Page,
  samples = 15,
): Promise<{ offsetMs: number; uncertaintyMs: number }> {
  let best = { offsetMs: 0, uncertaintyMs: Number.POSITIVE_INFINITY };
  const count = Math.min(100, Math.max(1, Math.floor(samples)));
  for (let sample = 0; sample < count; sample += 1) {
    const before = epochNow();
    const pageTime = await page.evaluate(() => performance.timeOrigin + performance.now());
    const after = epochNow();
    const halfTrip = (after - before) / 2;
    if (halfTrip < best.uncertaintyMs) {
      best = { offsetMs: pageTime - (before + halfTrip), uncertaintyMs: halfTrip };
    }
  }
  return best;
}

/**
 * Collects a page's console lines that start with a prefix (from any of its frames, sandboxed
 * views included) and lets a caller wait for the one with a given key.
 */
export class ConsoleMarks {
  readonly #prefix: string;
  readonly #seen = new Map<string, string>();
  readonly #waiters = new Map<string, (rest: string) => void>();
  readonly #listener: (message: ConsoleMessage) => void;
  readonly #page: Page;

  /**
   * Starts listening.
   *
   * @param prefix - lines look like `<prefix> <key> <rest>`; others are ignored.
   */
  constructor(page: Page, prefix: string) {
    this.#page = page;
    this.#prefix = `${prefix} `;
    this.#listener = (message) => {
      const text = message.text();
      if (!text.startsWith(this.#prefix)) return;
      const body = text.slice(this.#prefix.length);
      const space = body.indexOf(" ");
      const key = space === -1 ? body : body.slice(0, space);
      const rest = space === -1 ? "" : body.slice(space + 1);
      const waiter = this.#waiters.get(key);
      if (waiter === undefined) {
        this.#seen.set(key, rest);
        return;
      }
      this.#waiters.delete(key);
      waiter(rest);
    };
    page.on("console", this.#listener);
  }

  /**
   * Waits for the line with this key (or returns it if it came already).
   *
   * @returns the text after the key.
   * @throws {Error} when it does not come within `timeoutMs`.
   */
  next(key: string, timeoutMs: number): Promise<string> {
    const seen = this.#seen.get(key);
    if (seen !== undefined) {
      this.#seen.delete(key);
      return Promise.resolve(seen);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(key);
        reject(new Error(`The page did not log "${this.#prefix}${key}" within ${timeoutMs} ms.`));
      }, timeoutMs);
      this.#waiters.set(key, (rest) => {
        clearTimeout(timer);
        resolve(rest);
      });
    });
  }

  /** Stops listening. */
  stop(): void {
    this.#page.off("console", this.#listener);
  }
}
