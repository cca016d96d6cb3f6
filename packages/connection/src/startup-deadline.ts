// The deadline of a session's startup: it fails when `startupTimeout` runs out, when the caller's
// signal aborts, or when the session reports a fault (a stray reply) before `initialize` is answered.
import { McpStartupError } from "./connection-errors";

/**
 * The error of a startup the caller's signal called off.
 *
 * @param server - the configured server name.
 * @returns the error to reject the startup with.
 */
export function startupCalledOff(server: string): McpStartupError {
  return new McpStartupError(`Starting MCP server "${server}" was called off before it was ready.`);
}

/** One startup's timer and abort listener; {@link StartupDeadline.dispose} it once startup settled. */
export class StartupDeadline {
  /** Rejects with McpStartupError when time runs out, the signal aborts, or {@link fail} is called. */
  readonly failed: Promise<never>;

  private readonly timer: NodeJS.Timeout;
  private readonly signal: AbortSignal | undefined;
  private readonly onAbort: () => void;
  private reject: (error: McpStartupError) => void = () => {};

  /**
   * @param server - the configured server name, for messages.
   * @param startupMs - how long startup may take.
   * @param signal - the caller's signal; aborting it fails the startup.
   */
  constructor(server: string, startupMs: number, signal: AbortSignal | undefined) {
    this.failed = new Promise<never>((_resolve, reject) => {
      this.reject = reject;
    });
    this.timer = setTimeout(
      () =>
        this.reject(
          new McpStartupError(
            `MCP server "${server}" did not initialize in time (${startupMs / 1000} s). Check that it starts an MCP server, or allow a longer startupTimeout.`,
          ),
        ),
      startupMs,
    );
    this.signal = signal;
    this.onAbort = (): void => this.reject(startupCalledOff(server));
    this.signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  /**
   * Fails the startup now (the first failure wins).
   *
   * @param error - what went wrong.
   */
  fail(error: McpStartupError): void {
    this.reject(error);
  }

  /** Stops the timer and the abort listener. */
  dispose(): void {
    clearTimeout(this.timer);
    this.signal?.removeEventListener("abort", this.onAbort);
  }
}
