// Where the server's log lines go, without ever waiting for the reader. pino's own destination
// (sonic-boom) writes synchronously: on a full pipe it sleeps in `Atomics.wait` between tries,
// and its `flushSync` retries an `EPIPE` for ever, so a log reader that stops reading (or goes
// away) stops the event loop, and SIGTERM with it. Here every line is handed to a Node stream
// (a pipe's is non-blocking), at most `maxBufferedBytes` wait in memory, the rest are dropped and
// counted, and a stream that fails is given up once, for the next one or for nothing.
import { createWriteStream } from "node:fs";
import type { Writable } from "node:stream";

/** One place log lines may go. */
export interface LogTarget {
  /** How the notes name it: "stdout", "stderr", `the file "…"`. */
  readonly name: string;
  /** The stream written to. */
  readonly stream: Writable;
}

/** Options of {@link NonBlockingLogDestination}. */
export interface LogDestinationOptions {
  /** The most bytes left waiting for a slow reader before lines are dropped (default 1 MiB). */
  maxBufferedBytes?: number;
}

/**
 * A pino destination (`write(line)`) that never blocks: lines go to the first target; when it
 * fails (`EPIPE`, a closed file) the next target takes over with a note saying so, written once;
 * when a target's reader is too slow, lines are dropped and, once it has caught up, one note says
 * how many. With no target left, lines are dropped silently.
 */
export class NonBlockingLogDestination {
  readonly #targets: LogTarget[];
  readonly #maxBufferedBytes: number;
  #dropped = 0;

  /**
   * @param targets - where lines go, in order of preference (e.g. stdout, then stderr).
   * @param options - the buffer's bound.
   */
  constructor(targets: LogTarget[], options: LogDestinationOptions = {}) {
    this.#targets = [...targets];
    this.#maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
    for (const target of this.#targets) this.#watch(target);
  }

  /** How many lines were dropped since the last note about it. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The target lines go to now, or null when every one failed. */
  get current(): LogTarget | null {
    return this.#targets[0] ?? null;
  }

  /**
   * Resolves once what waits for the current target was handed to it, or after `timeoutMs`
   * (before an exit: the last lines get a chance, a stalled reader never holds the exit).
   */
  flushed(timeoutMs: number): Promise<void> {
    const target = this.current;
    if (target === null || target.stream.writableLength === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        target.stream.off("error", done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      target.stream.once("error", done);
      // An empty write's callback runs once everything before it was handed on.
      try {
        target.stream.write("", done);
      } catch {
        done();
      }
    });
  }

  /** Writes one line (pino's destination contract); never throws, never waits. */
  write(line: string): void {
    const target = this.current;
    if (target === null) return;
    const waiting = target.stream.writableLength;
    // A line longer than the bound still goes out when nothing waits before it.
    if (waiting > 0 && waiting + Buffer.byteLength(line) > this.#maxBufferedBytes) {
      this.#dropped += 1;
      return;
    }
    try {
      target.stream.write(line);
    } catch (error) {
      this.#fail(target, error);
    }
  }

  /** Watches a target for its failure (once) and for a slow reader catching up. */
  #watch(target: LogTarget): void {
    // Also keeps a broken pipe from becoming an uncaught exception for `console.log`.
    target.stream.on("error", (error: unknown) => this.#fail(target, error));
    target.stream.on("drain", () => {
      if (this.#dropped === 0 || this.current !== target) return;
      const count = this.#dropped;
      this.#dropped = 0;
      this.write(
        note("warn", `${count} log lines were dropped: ${target.name} was not being read.`),
      );
    });
  }

  #fail(target: LogTarget, error: unknown): void {
    const index = this.#targets.indexOf(target);
    if (index === -1) return;
    this.#targets.splice(index, 1);
    const code = (error as { code?: unknown } | null)?.code;
    const reason = typeof code === "string" ? code : "an error";
    const next = this.current;
    if (next === null) return;
    this.write(
      note(
        "error",
        `Writing the log to ${target.name} failed (${reason}); the log goes to ${next.name} from now on.`,
      ),
    );
  }
}

/** A pino-shaped line written by the destination itself. */
function note(level: "warn" | "error", message: string): string {
  return `${JSON.stringify({ level: level === "warn" ? 40 : 50, time: Date.now(), pid: process.pid, msg: message })}\n`;
}

/**
 * The targets of the server's log: the file the operator named (`--log-file`, `LOG_FILE`), else
 * stdout; stderr after either fails.
 *
 * @param logFile - a path, or undefined for stdout.
 * @returns the targets, in order.
 */
export function logTargets(logFile: string | undefined): LogTarget[] {
  const first: LogTarget =
    logFile === undefined
      ? { name: "stdout", stream: process.stdout }
      : {
          name: `the file ${JSON.stringify(logFile)}`,
          stream: createWriteStream(logFile, { flags: "a", mode: 0o600 }),
        };
  const targets = [first, { name: "stderr", stream: process.stderr }];
  // stdout is watched even when the log goes to a file: `console.log` writes there.
  if (logFile !== undefined) process.stdout.on("error", () => undefined);
  return targets;
}
