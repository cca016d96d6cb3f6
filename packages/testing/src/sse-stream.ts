import type { ServerResponse } from "node:http";
import type { Fault } from "./fault";
import type { StreamEvent } from "./provider-api";

/** @returns the event as it goes on the wire (`event:` line when named, `data:`, blank line). */
export function formatEvent(event: StreamEvent): string {
  return `${event.event === undefined ? "" : `event: ${event.event}\n`}data: ${event.data}\n\n`;
}

/** What is written, and how the stream then ends. */
export interface StreamPlan {
  readonly events: readonly StreamEvent[];
  readonly ending: "end" | "cut" | "stall";
}

type StreamFault = Exclude<Fault, { kind: "http" }>;

/**
 * Applies a stream fault to a reply's events.
 *
 * @param errorEvent builds the API's in-stream error event for a `stream-error` fault.
 * @returns the events to write and how the stream ends.
 */
export function planStream(
  events: readonly StreamEvent[],
  fault: StreamFault | undefined,
  errorEvent: (variant: "error" | "response.failed", sequenceNumber: number) => StreamEvent,
): StreamPlan {
  if (fault === undefined) return { events, ending: "end" };
  const half = Math.floor(events.length / 2);
  switch (fault.kind) {
    case "no-finish":
      return { events: events.filter((event) => event.finish !== true), ending: "end" };
    case "cut":
      return { events: events.slice(0, fault.afterEvents ?? half), ending: "cut" };
    case "stall":
      return { events: events.slice(0, fault.afterEvents ?? half), ending: "stall" };
    case "stream-error": {
      const count = fault.afterEvents ?? half;
      return {
        events: [...events.slice(0, count), errorEvent(fault.variant ?? "error", count)],
        ending: "end",
      };
    }
    case "malformed": {
      const index = Math.min(fault.atEvent ?? half, events.length - 1);
      return {
        events: events.map((event, position) =>
          position === index ? { ...event, data: breakJson(event.data) } : event,
        ),
        ending: "end",
      };
    }
  }
}

function breakJson(data: string): string {
  // Cut the JSON short so it cannot parse, the way a proxy that truncates a line would.
  return data.startsWith("{") ? data.slice(0, Math.max(2, Math.floor(data.length / 2))) : "{";
}

/**
 * Writes planned events one at a time, giving the event loop a turn between events so each one
 * leaves as its own chunk and a client abort is seen between writes.
 *
 * @returns once every event is written, or early when the response was closed.
 */
export async function writeEvents(
  response: ServerResponse,
  events: readonly StreamEvent[],
): Promise<void> {
  for (const event of events) {
    if (response.destroyed || response.writableEnded || response.socket?.destroyed !== false)
      return;
    const flushed = response.write(formatEvent(event));
    if (!flushed) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          response.off("drain", done);
          response.off("close", done);
          resolve();
        };
        response.on("drain", done);
        response.on("close", done);
      });
    } else {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}
