import { describe, expect, it } from "vitest";
import type { StreamEvent } from "./provider-api";
import { formatEvent, planStream } from "./sse-stream";
import { splitIntoPieces } from "./text-pieces";

const events: StreamEvent[] = [
  { event: "a", data: '{"n":0}' },
  { event: "b", data: '{"n":1}' },
  { event: "c", data: '{"n":2}' },
  { event: "done", data: '{"n":3}', finish: true },
];
const errorEvent = (_variant: string, sequenceNumber: number): StreamEvent => ({
  event: "error",
  data: `{"at":${sequenceNumber}}`,
});

describe("planStream", () => {
  it("leaves out the finish events for no-finish", () => {
    expect(
      planStream(events, { kind: "no-finish" }, errorEvent).events.map((e) => e.event),
    ).toEqual(["a", "b", "c"]);
  });

  it("cuts, stalls and errors after half the events unless told", () => {
    expect(planStream(events, { kind: "cut" }, errorEvent)).toEqual({
      events: events.slice(0, 2),
      ending: "cut",
    });
    expect(planStream(events, { kind: "stall", afterEvents: 1 }, errorEvent)).toEqual({
      events: events.slice(0, 1),
      ending: "stall",
    });
    expect(
      planStream(events, { kind: "stream-error" }, errorEvent).events.map((e) => e.data),
    ).toEqual(['{"n":0}', '{"n":1}', '{"at":2}']);
  });

  it("breaks the JSON of one event and keeps the others", () => {
    const planned = planStream(events, { kind: "malformed", atEvent: 1 }, errorEvent).events;

    expect(() => JSON.parse(planned[1]!.data)).toThrow();
    expect(planned.filter((_event, index) => index !== 1)).toEqual(
      events.filter((_event, index) => index !== 1),
    );
  });
});

describe("formatEvent and splitIntoPieces", () => {
  it("writes named and unnamed events as SSE", () => {
    expect(formatEvent({ event: "ping", data: "{}" })).toBe("event: ping\ndata: {}\n\n");
    expect(formatEvent({ data: "[DONE]" })).toBe("data: [DONE]\n\n");
  });

  it("splits into at least two pieces, never past the size, keeping characters whole", () => {
    expect(splitIntoPieces("ab", 6)).toEqual(["a", "b"]);
    expect(splitIntoPieces("abcdefghijklm", 6)).toEqual(["abcdef", "ghijkl", "m"]);
    expect(splitIntoPieces("😀😀😀", 6)).toEqual(["😀😀", "😀"]);
    expect(splitIntoPieces("", 6)).toEqual([]);
  });
});
