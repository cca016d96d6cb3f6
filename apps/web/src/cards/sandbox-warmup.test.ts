// @vitest-environment jsdom
import { outerFrameSandbox } from "@mcp-chat-host/sandbox";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ensureWarmupFrame,
  keepSandboxWarm,
  startSandboxWarmup,
  warmupStorageKey,
  warmupUrlFor,
} from "./sandbox-warmup";

const proxyUrl =
  "http://proxy.localhost:41234/proxy?host=http%3A%2F%2F127.0.0.1%3A3000&view=notes&csp=e30";

function warmFrames(): HTMLIFrameElement[] {
  return [...document.querySelectorAll<HTMLIFrameElement>('iframe[data-testid="sandbox-warmup"]')];
}

afterEach(() => {
  for (const frame of warmFrames()) frame.remove();
  localStorage.clear();
  vi.useRealTimers();
});

describe("warmupUrlFor", () => {
  it("is the proxy origin's warm document naming the card's view label, and nothing else", () => {
    expect(warmupUrlFor(proxyUrl)).toBe("http://proxy.localhost:41234/warm?view=notes");
    expect(warmupUrlFor("http://proxy.localhost:41234/proxy")).toBe(
      "http://proxy.localhost:41234/warm",
    );
    expect(warmupUrlFor("javascript:alert(1)")).toBeUndefined();
    expect(warmupUrlFor("not a url")).toBeUndefined();
  });
});

describe("the warm frame", () => {
  it("is hidden, not focusable, runs nothing and is stricter than a card's outer frame", () => {
    const frame = ensureWarmupFrame(document, proxyUrl);
    expect(frame).toBeDefined();
    expect(frame?.parentElement).toBe(document.body);
    expect(frame?.getAttribute("aria-hidden")).toBe("true");
    expect(frame?.tabIndex).toBe(-1);
    expect(frame?.width).toBe("0");
    expect(frame?.height).toBe("0");
    expect(frame?.style.visibility).toBe("hidden");
    const tokens = (frame?.getAttribute("sandbox") ?? "").split(" ");
    expect(tokens).toEqual(["allow-same-origin"]);
    for (const token of tokens) expect(outerFrameSandbox.split(" ")).toContain(token);
    expect(frame?.getAttribute("referrerpolicy")).toBe("no-referrer");
    expect(frame?.src).toBe("http://proxy.localhost:41234/warm?view=notes");
    // Not a card: nothing a card's code looks for.
    expect(frame?.dataset.testid).not.toBe("card-iframe");
    expect(frame?.closest('[data-testid="card"]')).toBeNull();
  });

  it("is one frame per page, replaced for another sandbox", () => {
    const first = ensureWarmupFrame(document, proxyUrl);
    expect(ensureWarmupFrame(document, proxyUrl)).toBe(first);
    const other = ensureWarmupFrame(document, "http://proxy.localhost:5000/proxy?view=maps");
    expect(other).not.toBe(first);
    expect(warmFrames()).toEqual([other]);
  });

  it("is put in the page and remembered when a card's proxy loads", () => {
    keepSandboxWarm(proxyUrl);
    expect(warmFrames()).toHaveLength(1);
    expect(localStorage.getItem(warmupStorageKey)).toBe(proxyUrl);
  });

  it("starts once the page is idle, from the last visit's sandbox, and not before", () => {
    vi.useFakeTimers();
    localStorage.setItem(warmupStorageKey, proxyUrl);
    startSandboxWarmup();
    expect(warmFrames()).toHaveLength(0);
    vi.advanceTimersByTime(3_000);
    expect(warmFrames()).toHaveLength(1);
  });

  it("is not made when no card has opened in this browser, or when cancelled", () => {
    vi.useFakeTimers();
    startSandboxWarmup();
    vi.advanceTimersByTime(3_000);
    expect(warmFrames()).toHaveLength(0);
    localStorage.setItem(warmupStorageKey, proxyUrl);
    const cancel = startSandboxWarmup();
    cancel();
    vi.advanceTimersByTime(3_000);
    expect(warmFrames()).toHaveLength(0);
  });
});
