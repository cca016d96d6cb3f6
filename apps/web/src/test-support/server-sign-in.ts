import type { ServerStatus } from "@mcp-chat-host/protocol";
import { vi } from "vitest";

/** A server of the person's as the servers panel lists it (tests). */
export function serverStatus(name: string, overrides: Partial<ServerStatus> = {}): ServerStatus {
  return { name, remote: true, signIn: true, state: "needs-sign-in", ...overrides };
}

/**
 * A stand-in for the window `window.open` returns: it records where it was sent and whether it
 * was closed, and starts with an opener as a real popup does.
 */
export class FakePopup {
  opener: unknown = window;
  closed = false;
  readonly replaced: string[] = [];
  /** What `opener` was when the page first navigated the popup. */
  openerAtNavigation: unknown = "never navigated";
  readonly location = {
    replace: (url: string) => {
      if (this.replaced.length === 0) this.openerAtNavigation = this.opener;
      this.replaced.push(url);
    },
  };

  close(): void {
    this.closed = true;
  }
}

/** One call of `window.open`. */
export interface OpenCall {
  url: string | undefined;
  target: string | undefined;
  features: string | undefined;
}

/**
 * Replaces `window.open` for a test: it records each call and returns `popup` (null: the browser
 * blocked it). Restore with `vi.restoreAllMocks()`.
 */
export function stubWindowOpen(popup: FakePopup | null): OpenCall[] {
  const calls: OpenCall[] = [];
  vi.spyOn(window, "open").mockImplementation((url, target, features) => {
    calls.push({ url: url?.toString(), target, features });
    return popup as unknown as Window | null;
  });
  return calls;
}
