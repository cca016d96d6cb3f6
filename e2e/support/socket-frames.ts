// Watches the chat page's socket.io traffic, so a spec can wait for the server to have taken
// something in (its acknowledgement arrived) instead of guessing how long it takes. socket.io
// (protocol 5) over a WebSocket writes an event with an acknowledgement as `42<id>["event",…]`
// and its answer as `43<id>[…]`, in the default namespace.
import { expect, type Page } from "@playwright/test";

/** The page's socket frames since {@link watchSocketFrames} was called. */
export interface SocketFrames {
  /** Every frame the page sent, oldest first. */
  readonly sent: readonly string[];
  /** Every frame the page received, oldest first. */
  readonly received: readonly string[];
  /**
   * Waits until the page sent `event` with a payload containing `contains` and the server
   * answered it with `{ ok: true, … }`.
   *
   * @throws when that does not happen within the expect timeout.
   */
  acknowledged(event: string, contains?: string): Promise<void>;
  /** How many `event` frames the page sent so far. */
  countSent(event: string): number;
  /** How many `event` frames the server pushed to the page so far. */
  countReceived(event: string): number;
}

const eventFrame = /^42(\d+)\["([^"]+)"/;

/**
 * Starts recording the page's WebSocket frames. Call it before the page opens its socket (before
 * signing in, or before a reload).
 *
 * @param page - the chat page.
 * @returns the recorder.
 */
export function watchSocketFrames(page: Page): SocketFrames {
  const sent: string[] = [];
  const received: string[] = [];
  page.on("websocket", (socket) => {
    socket.on("framesent", (frame) => {
      if (typeof frame.payload === "string") sent.push(frame.payload);
    });
    socket.on("framereceived", (frame) => {
      if (typeof frame.payload === "string") received.push(frame.payload);
    });
  });

  function acknowledgementIds(event: string, contains: string): string[] {
    return sent.flatMap((frame) => {
      const match = eventFrame.exec(frame);
      return match?.[2] === event && match[1] !== undefined && frame.includes(contains)
        ? [match[1]]
        : [];
    });
  }

  return {
    sent,
    received,
    async acknowledged(event, contains = "") {
      await expect
        .poll(
          () =>
            acknowledgementIds(event, contains).some((id) =>
              received.some((frame) => frame.startsWith(`43${id}[{"ok":true`)),
            ),
          { message: `the server acknowledges ${event} containing ${JSON.stringify(contains)}` },
        )
        .toBe(true);
    },
    countSent(event) {
      return sent.filter((frame) => eventFrame.exec(frame)?.[2] === event).length;
    },
    countReceived(event) {
      return received.filter((frame) =>
        frame.startsWith(`42${JSON.stringify([event]).slice(0, -1)}`),
      ).length;
    },
  };
}
