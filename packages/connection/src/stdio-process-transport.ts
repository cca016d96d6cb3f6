// An MCP transport over a child process's stdin/stdout, like the SDK's StdioClientTransport, but
// the child leads a process group and session of its own (`detached: true`) so that the whole
// tree it starts can be found and killed, closing waits until that tree is gone, and its exit is
// reported with the code or signal.
import { spawn, type ChildProcess } from "node:child_process";
import {
  serializeMessage,
  type JSONRPCMessage,
  type Transport,
} from "@modelcontextprotocol/client";
import { getDefaultEnvironment } from "@modelcontextprotocol/client/stdio";
import type { McpStdioBox } from "./config/config-types";
import { JsonLineReader } from "./json-line-reader";
import {
  forgetProcessTree,
  identifyServer,
  killProcessTree,
  sampleProcessTrees,
  trackProcessTree,
  type ProcessIdentity,
} from "./process-tree";
import { waitUntilProcessesGone } from "./process-tree-walk";
import { boxedCommand, currentServerBox } from "./server-box";

/** How a server process ended. */
export interface ProcessExit {
  /** The exit code, when the process exited by itself. */
  exitCode: number | null;
  /** The signal that ended it, when one did. */
  signal: NodeJS.Signals | null;
}

/** What to run, and how. */
export interface StdioProcessOptions {
  /** The configured server name (for the process ledger's log). */
  name?: string;
  /** Program to run, resolved on `PATH` when it is not a path. */
  command: string;
  args?: readonly string[];
  /** Added to (and overriding) the small safe environment the SDK passes to stdio servers. */
  env?: Readonly<Record<string, string>>;
  /** Working directory; the host's by default. */
  cwd?: string;
  /** Receives the server's stderr as text, chunk by chunk. */
  onStderr?: (text: string) => void;
  /** Largest single message accepted, in bytes (the SDK's default when absent). */
  maxBufferSize?: number;
  /**
   * The entry's box settings, used when the process runs with a server box policy
   * (`configureServerBox`): `false` runs this server unboxed, refused when boxes are required.
   */
  box?: McpStdioBox | false | undefined;
}

// Enough of the server's stderr to explain a failed start, without keeping a noisy server's log.
const stderrTailLimit = 4000;
// After the leader exits, its output pipes may stay open in a process that escaped the group;
// stop waiting for them after this long.
const pipeDrainLimitMs = 1000;
// A process killed with SIGKILL is gone within milliseconds unless it is stuck in the kernel
// (uninterruptible sleep); past this, closing reports the survivors and returns.
const treeExitLimitMs = 5000;

/**
 * A {@link Transport} that starts the server as the leader of a new process group and session.
 * `close()` kills the server's whole process tree with SIGKILL (on Linux every descendant, even
 * one that left the group; elsewhere the group) and resolves once the tree is gone;
 * `closeStdin()` and `waitForExit()` let the caller ask for a graceful exit first. When the
 * process exits by itself, its output is read to the end, the rest of its tree is killed, then
 * `onexit` and `onclose` run, in that order.
 *
 * A reply whose `id` is null or missing (a JSON-RPC parse-error reply) is passed on as it is,
 * although the SDK's schema refuses a null id, so that the reply-id guard above can see it.
 */
export class StdioProcessTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T) => void) | undefined;
  /**
   * Called once when the process ended on its own (not through `close()`), after its output was
   * read to the end and before `onclose`.
   */
  onexit?: ((exit: ProcessExit) => void) | undefined;

  private readonly options: StdioProcessOptions;
  private readonly lines: JsonLineReader;
  private child: ChildProcess | undefined;
  private identity: ProcessIdentity | undefined;
  private treeGone: Promise<void> | undefined;
  private exitInfo: ProcessExit | undefined;
  private stderrText = "";
  private finished = false;
  private readonly exited: Promise<ProcessExit>;
  private resolveExited!: (exit: ProcessExit) => void;

  /** @param options - the command, arguments and environment of the server. */
  constructor(options: StdioProcessOptions) {
    this.options = options;
    this.lines = new JsonLineReader(options.maxBufferSize);
    this.exited = new Promise((resolve) => {
      this.resolveExited = resolve;
    });
  }

  /** The server's pid (also its process group and session id), once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How the process ended, once it has. */
  get exit(): ProcessExit | undefined {
    return this.exitInfo;
  }

  /** The last few thousand characters the server wrote to stderr. */
  get stderrTail(): string {
    return this.stderrText;
  }

  /**
   * Spawns the server. Resolves once the process runs.
   *
   * @throws Error when the program cannot be started (for example ENOENT).
   */
  start(): Promise<void> {
    if (this.child !== undefined) throw new Error("StdioProcessTransport was already started.");
    const env = { ...getDefaultEnvironment(), ...this.options.env };
    let launch: { command: string; args: string[] };
    try {
      launch = this.launch(env);
    } catch (error) {
      this.recordExit({ exitCode: null, signal: null });
      return Promise.reject(error as Error);
    }
    return new Promise((resolve, reject) => {
      const child = spawn(launch.command, launch.args, {
        env,
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
        shell: false,
        ...(this.options.cwd === undefined ? {} : { cwd: this.options.cwd }),
      });
      this.child = child;
      let spawned = false;
      child.once("spawn", () => {
        spawned = true;
        if (child.pid !== undefined) {
          // Read now, while the pid is surely still this child's (it is reaped only later).
          this.identity = identifyServer(child.pid);
          trackProcessTree(this.identity, {
            name: this.options.name ?? this.options.command,
            command: [this.options.command, ...(this.options.args ?? [])].join(" "),
          });
        }
        resolve();
      });
      child.on("error", (error) => {
        if (!spawned) {
          this.recordExit({ exitCode: null, signal: null });
          reject(error);
          return;
        }
        this.onerror?.(error);
      });
      child.once("exit", (exitCode, signal) => {
        this.recordExit({ exitCode, signal });
        // Free the pipes held by anything else in the tree, so the output can end.
        void this.endTree();
        const fallback = setTimeout(() => this.finish(true), pipeDrainLimitMs);
        fallback.unref();
      });
      // `close` comes after `exit` once stdout and stderr have ended: all output has been read.
      child.once("close", () => this.finish(true));
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("data", (chunk: Buffer) => this.receive(chunk));
      child.stderr?.setEncoding("utf8");
      child.stderr?.on("data", (text: string) => {
        this.stderrText = (this.stderrText + text).slice(-stderrTailLimit);
        this.options.onStderr?.(text);
      });
    });
  }

  // The command line to spawn: the server's own, or bubblewrap running it in its box.
  private launch(env: Record<string, string>): { command: string; args: string[] } {
    const command = this.options.command;
    const args = [...(this.options.args ?? [])];
    const policy = currentServerBox();
    if (policy === undefined) return { command, args };
    if (this.options.box === false) {
      if (policy.required) {
        throw new Error(
          `MCP server "${this.options.name ?? command}" sets "box": false, but this host runs every stdio server in a box (--server-box required). Remove "box": false from its entry, or start the host with --server-box auto.`,
        );
      }
      return { command, args };
    }
    return boxedCommand(policy, {
      command,
      args,
      env,
      cwd: this.options.cwd,
      box: this.options.box,
    });
  }

  /**
   * Writes one message to the server's stdin.
   *
   * @throws Error when the process is not running.
   */
  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (this.finished || stdin == null || stdin.destroyed || stdin.writableEnded) {
      return Promise.reject(new Error("The MCP server process is not running."));
    }
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /**
   * Closes the server's stdin, which asks a stdio server to shut down. The tree is read first:
   * a child that left the server's group stays known even once the server has exited.
   */
  closeStdin(): void {
    if (this.identity !== undefined) sampleProcessTrees(this.identity.pid);
    this.child?.stdin?.end();
  }

  /**
   * Waits for the process to exit.
   *
   * @param limitMs - how long to wait at most.
   * @returns true when it exited within the limit.
   */
  async waitForExit(limitMs: number): Promise<boolean> {
    if (this.exitInfo !== undefined) return true;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), limitMs);
    });
    try {
      return await Promise.race([this.exited.then(() => true), expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Kills the server's whole process tree and stops reading (`onclose` runs at once), then
   * waits until every process of the tree is gone (at most a few seconds; survivors are
   * reported through `onerror`). Safe to call again: later calls wait for the same end.
   */
  async close(): Promise<void> {
    const gone = this.endTree();
    this.finish(false);
    await gone;
  }

  // Kills the tree once (on close() or when the leader exits) and waits for all of it.
  private endTree(): Promise<void> {
    this.treeGone ??= this.killAndWait();
    return this.treeGone;
  }

  private async killAndWait(): Promise<void> {
    const identity = this.identity;
    if (identity === undefined) return;
    // The parent may follow the server's group and session: at most a moment has passed since
    // the server exited, too short for its pid (and so the group's id) to be given out again.
    const killed = killProcessTree(identity, { ownGroup: true });
    const others = killed.filter((entry) => entry.pid !== identity.pid);
    const [leaderGone, othersGone] = await Promise.all([
      this.waitForExit(treeExitLimitMs),
      waitUntilProcessesGone(others, treeExitLimitMs),
    ]);
    if (!leaderGone || !othersGone) {
      this.onerror?.(
        new Error(
          `Processes of MCP server "${this.options.name ?? this.options.command}" still ran ${treeExitLimitMs / 1000} s after SIGKILL (pids ${killed.map((entry) => entry.pid).join(", ")}).`,
        ),
      );
    }
    forgetProcessTree(identity);
  }

  private receive(chunk: Buffer): void {
    if (this.finished) return;
    try {
      this.lines.append(chunk);
    } catch (error) {
      // The only failure is a message past the size limit: the stream can't be trusted now.
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.lines.readMessage();
      } catch (error) {
        // A line that is not JSON-RPC: report it and go on with the next line, as the SDK does.
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) break;
      this.onmessage?.(message);
      if (this.finished) break;
    }
  }

  private recordExit(exit: ProcessExit): void {
    if (this.exitInfo !== undefined) return;
    this.exitInfo = exit;
    this.resolveExited(exit);
  }

  private finish(exitedOnItsOwn: boolean): void {
    if (this.finished) return;
    this.finished = true;
    this.lines.clear();
    const child = this.child;
    child?.stdout?.removeAllListeners("data");
    child?.stdin?.destroy();
    child?.stdout?.destroy();
    child?.stderr?.destroy();
    if (exitedOnItsOwn) this.onexit?.(this.exitInfo ?? { exitCode: null, signal: null });
    this.onclose?.();
  }
}
