// A TCP listener on 127.0.0.1 that fixture servers report to (one JSON line per event), so a fault
// test waits for "the call is in flight" or "a new process started" as events, not with sleeps.
// When a server's connection ends (the kernel closes it when the process dies), the channel adds
// an event `gone` with that server's pid.
import { createServer, type Socket } from "node:net";

/** One event a fixture server reported. */
export interface ReportedEvent {
  event: string;
  pid: number;
  tool?: string;
}

/** The listener and the events received on it. */
export interface ReportChannel {
  /** The port to give the fixture (`FAULT_REPORT_PORT`). */
  port: number;
  /** Every event received so far, in order. */
  events: ReportedEvent[];
  /**
   * Resolves with the first event (received so far or later) that matches and was not taken
   * before; rejects after `timeoutMs`.
   */
  next(match: (event: ReportedEvent) => boolean, timeoutMs?: number): Promise<ReportedEvent>;
  close(): Promise<void>;
}

/** Opens a report channel on 127.0.0.1, port 0. */
export async function openReportChannel(): Promise<ReportChannel> {
  const events: ReportedEvent[] = [];
  const taken = new Set<ReportedEvent>();
  const waiters = new Set<{
    match: (event: ReportedEvent) => boolean;
    take: (event: ReportedEvent) => void;
  }>();
  const sockets = new Set<Socket>();
  let closing = false;
  const receive = (event: ReportedEvent) => {
    events.push(event);
    for (const waiter of waiters) {
      if (!taken.has(event) && waiter.match(event)) waiter.take(event);
    }
  };
  const server = createServer((socket) => {
    sockets.add(socket);
    let pid: number | null = null;
    socket.on("close", () => {
      sockets.delete(socket);
      if (pid !== null && !closing) receive({ event: "gone", pid });
    });
    socket.on("error", () => {});
    let buffered = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      buffered += chunk;
      let newline;
      while ((newline = buffered.indexOf("\n")) !== -1) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.trim() === "") continue;
        const event = JSON.parse(line) as ReportedEvent;
        pid ??= event.pid;
        receive(event);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("No TCP address.");
  return {
    port: address.port,
    events,
    next(match, timeoutMs = 15_000) {
      const seen = events.find((event) => !taken.has(event) && match(event));
      if (seen) {
        taken.add(seen);
        return Promise.resolve(seen);
      }
      return new Promise((resolve, reject) => {
        const waiter = {
          match,
          take: (event: ReportedEvent) => {
            taken.add(event);
            waiters.delete(waiter);
            clearTimeout(timer);
            resolve(event);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(
            new Error(`No matching report within ${timeoutMs} ms; got ${JSON.stringify(events)}`),
          );
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    async close() {
      closing = true;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
