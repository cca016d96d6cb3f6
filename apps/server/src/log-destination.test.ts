import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { NonBlockingLogDestination } from "./log-destination";

/** A stream that takes nothing until `open()` (a reader that stopped reading). */
function stalledStream() {
  const taken: string[] = [];
  let release: (() => void) | undefined;
  const stream = new Writable({
    highWaterMark: 16,
    write(chunk: Buffer, _encoding, callback) {
      taken.push(chunk.toString("utf8"));
      if (release === undefined) release = callback;
      else callback();
    },
  });
  return { stream, taken, open: () => release?.() };
}

describe("NonBlockingLogDestination", () => {
  it("drops what a stalled reader cannot take, then says how many once it caught up", async () => {
    const stalled = stalledStream();
    const destination = new NonBlockingLogDestination(
      [{ name: "stdout", stream: stalled.stream }],
      {
        maxBufferedBytes: 100,
      },
    );
    for (let line = 0; line < 20; line += 1) destination.write(`${"x".repeat(20)}\n`);
    expect(destination.dropped).toBeGreaterThan(10);
    const drained = new Promise((resolve) => stalled.stream.once("drain", resolve));
    stalled.open();
    await drained;
    await new Promise((resolve) => setImmediate(resolve));
    expect(stalled.taken.join("")).toMatch(
      /"msg":"\d+ log lines were dropped: stdout was not being read\."/,
    );
    expect(destination.dropped).toBe(0);
  });

  it("moves to the next target when one fails, noting it once, and drops when none is left", () => {
    const first = new PassThrough();
    const second = new PassThrough();
    const destination = new NonBlockingLogDestination([
      { name: "stdout", stream: first },
      { name: "stderr", stream: second },
    ]);
    destination.write("one\n");
    first.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    first.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    destination.write("two\n");
    expect(String(first.read())).toBe("one\n");
    const moved = String(second.read());
    expect(
      moved.match(/Writing the log to stdout failed \(EPIPE\); the log goes to stderr/g),
    ).toHaveLength(1);
    expect(moved.endsWith("two\n")).toBe(true);
    second.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    expect(destination.current).toBeNull();
    expect(() => destination.write("three\n")).not.toThrow();
  });

  it("waits for the last lines before an exit, but never longer than it was told", async () => {
    const stalled = stalledStream();
    const destination = new NonBlockingLogDestination([{ name: "stdout", stream: stalled.stream }]);
    destination.write("first\n");
    destination.write("last\n");
    const started = Date.now();
    await destination.flushed(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    const flushed = destination.flushed(5_000);
    stalled.open();
    await flushed;
    expect(stalled.taken.join("")).toBe("first\nlast\n");
  });
});
