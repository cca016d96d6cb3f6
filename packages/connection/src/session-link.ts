// The wire under an McpClientSession: the transport (a stdio child in its own process group, or
// Streamable HTTP falling back to SSE), the reply-id guard in front of it and the SDK Client
// on top, plus the graceful and forced ways to take them down.
import {
  Client,
  StreamableHTTPClientTransport,
  type AuthProvider,
  type FetchLike,
  type ClientCapabilities,
  type ElicitRequestParams,
  type ElicitResult,
  type Implementation,
  type RequestMethod,
  type RequestOptions,
  type ResultTypeMap,
  type ServerCapabilities,
  type Transport,
} from "@modelcontextprotocol/client";
import { errorMessage } from "@mcp-chat-host/protocol";
import type { McpServerConfig } from "./config/config-types";
import { McpStartupError } from "./connection-errors";
import { connectRemote, type RemoteTransportKind } from "./remote-transport";
import { ResponseIdGuard } from "./response-id-guard";
import { StdioProcessTransport, type ProcessExit } from "./stdio-process-transport";

/** The MCP Apps extension id a client declares in `initialize` to receive views. */
export const mcpAppsExtensionId = "io.modelcontextprotocol/ui";
/** The MIME type of MCP Apps views. */
export const mcpAppsMimeType = "text/html;profile=mcp-app";

/** How a session reaches its server. */
export type McpTransportKind = "stdio" | RemoteTransportKind;

/** How the link presents itself and where the server's output goes. */
export interface SessionLinkOptions {
  clientInfo?: Implementation | undefined;
  capabilities?: ClientCapabilities | undefined;
  onStderr?: ((text: string) => void) | undefined;
  onError?: ((error: Error) => void) | undefined;
  cwd?: string | undefined;
  authProvider?: AuthProvider | undefined;
  /** The fetch a remote server's requests go through (default: the global one). */
  fetch?: FetchLike | undefined;
  /** Answers `elicitation/create`; with it the client declares the `elicitation` capability. */
  onElicitation?:
    ((request: ElicitRequestParams, signal: AbortSignal) => Promise<ElicitResult>) | undefined;
}

/** What the link reports to its session. */
export interface SessionLinkEvents {
  /** A reply matched no request in flight (reported once). */
  onStrayResponse(): void;
  /** The transport of the current attempt closed without being asked to. */
  onTransportClose(): void;
  /** A progress notification, in message order; return true to consume it. */
  onProgress(params: Record<string, unknown> | undefined): boolean;
}

const defaultClientInfo: Implementation = { name: "mcp-chat-host", version: "0.1.0" };

/** The transport, guard and SDK client of one session. */
export class SessionLink {
  private client: Client | undefined;
  private stdio: StdioProcessTransport | undefined;
  private streamableHttp: StreamableHTTPClientTransport | undefined;
  private activeGuard: ResponseIdGuard | undefined;
  private currentKind: McpTransportKind;

  /**
   * @param entry - the configuration entry.
   * @param options - client identity and output sinks.
   * @param events - where stray replies, closes and progress go.
   */
  constructor(
    private readonly entry: McpServerConfig,
    private readonly options: SessionLinkOptions,
    private readonly events: SessionLinkEvents,
  ) {
    this.currentKind = entry.kind === "stdio" ? "stdio" : "streamable-http";
  }

  /** The transport in use (for remote servers, known once connected). */
  get kind(): McpTransportKind {
    return this.currentKind;
  }

  /** The stdio server's pid (its process group and session id). */
  get processId(): number | undefined {
    return this.stdio?.pid;
  }

  /** How the stdio server exited, once it has. */
  get exit(): ProcessExit | undefined {
    return this.stdio?.exit;
  }

  /** Whether the server runs as a stdio child of this process. */
  get isStdio(): boolean {
    return this.stdio !== undefined;
  }

  /** Whether the transport in use has closed. */
  get transportClosed(): boolean {
    return this.activeGuard?.isClosed ?? false;
  }

  /** The server's name and version from `initialize`. */
  get serverInfo(): Implementation | undefined {
    return this.client?.getServerVersion();
  }

  /** The server's capabilities from `initialize`. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.client?.getServerCapabilities();
  }

  /** The server's instructions from `initialize`. */
  get instructions(): string | undefined {
    return this.client?.getInstructions();
  }

  /**
   * Starts the transport and runs the `initialize` handshake (declaring MCP Apps).
   *
   * @param timeoutMs - the SDK's own limit for the handshake.
   */
  async connect(timeoutMs: number): Promise<void> {
    const connectOptions = { timeout: timeoutMs };
    if (this.entry.kind === "stdio") {
      this.stdio = new StdioProcessTransport({
        name: this.entry.name,
        command: this.entry.command,
        args: this.entry.args,
        env: this.entry.env,
        box: this.entry.box,
        ...(this.options.onStderr === undefined ? {} : { onStderr: this.options.onStderr }),
        ...(this.options.cwd === undefined ? {} : { cwd: this.options.cwd }),
      });
      await this.createClient().connect(this.guard(this.stdio), connectOptions);
      return;
    }
    const endpoint = {
      ...this.entry,
      authProvider: this.options.authProvider,
      fetch: this.options.fetch,
    };
    const { kind } = await connectRemote(endpoint, async (transport, kind) => {
      this.currentKind = kind;
      this.streamableHttp =
        transport instanceof StreamableHTTPClientTransport ? transport : undefined;
      // Streamable HTTP servers may speak only the 2026-07-28 revision (no initialize): probe
      // with server/discover first, as mcpClient() does; the SSE transport predates it.
      await this.createClient(kind === "streamable-http").connect(
        this.guard(transport),
        connectOptions,
      );
    });
    this.currentKind = kind;
  }

  /**
   * Sends one request through the SDK client.
   *
   * @throws McpStartupError when called before a client exists.
   */
  request<Method extends RequestMethod>(
    request: { method: Method; params?: Record<string, unknown> },
    options: RequestOptions,
  ): Promise<ResultTypeMap[Method]> {
    if (this.client === undefined) {
      throw new McpStartupError(`MCP server "${this.entry.name}" is not connected.`);
    }
    return this.client.request(request, options);
  }

  /**
   * Takes the link down. Graceful first when asked: closes a stdio server's stdin and waits
   * for it to exit, or ends a Streamable HTTP session, at most `limitMs`. Then closes the
   * client and kills the stdio server's whole process tree.
   *
   * @returns once a stdio server's whole tree is gone.
   */
  async shutDown(graceful: boolean, limitMs: number): Promise<void> {
    if (graceful && this.stdio !== undefined) {
      this.stdio.closeStdin();
      await this.stdio.waitForExit(limitMs);
    } else if (graceful && this.streamableHttp !== undefined) {
      await withinLimit(this.streamableHttp.terminateSession(), limitMs);
    }
    await this.client?.close().catch(() => undefined);
    await this.stdio?.close();
  }

  /**
   * Says why a start failed: the exit code and the server's last stderr, or the error.
   *
   * @param cause - what the handshake threw, if anything.
   * @returns the startup error to raise.
   */
  describeStartupFailure(cause: unknown): McpStartupError {
    const name = this.entry.name;
    const exit = this.stdio?.exit;
    const output = this.stdio?.stderrTail.trim().slice(-500) ?? "";
    const lastOutput = output === "" ? "" : ` Its last output: ${output}`;
    if (exit !== undefined && (exit.exitCode !== null || exit.signal !== null)) {
      const how = exit.signal !== null ? `signal ${exit.signal}` : `exit code ${exit.exitCode}`;
      return new McpStartupError(
        `MCP server "${name}" exited during startup (${how}).${lastOutput}`,
        {
          cause,
        },
      );
    }
    const detail = errorMessage(cause, "the connection closed");
    const hint =
      this.entry.kind === "stdio"
        ? "Check the command, arguments and environment in the configuration."
        : "Check the url and headers in the configuration.";
    return new McpStartupError(
      `MCP server "${name}" could not be started: ${detail}. ${hint}${lastOutput}`,
      { cause },
    );
  }

  private createClient(negotiateVersion = false): Client {
    const extra = this.options.capabilities;
    const onElicitation = this.options.onElicitation;
    const client = new Client(this.options.clientInfo ?? defaultClientInfo, {
      capabilities: {
        ...extra,
        // Declared only when someone answers: a server then knows it may ask (both modes).
        ...(onElicitation === undefined ? {} : { elicitation: { form: {}, url: {} } }),
        extensions: {
          ...extra?.extensions,
          [mcpAppsExtensionId]: { mimeTypes: [mcpAppsMimeType] },
        },
      },
      ...(negotiateVersion ? { versionNegotiation: { mode: "auto" as const } } : {}),
    });
    client.onerror = (error) => this.options.onError?.(error);
    // Before connect(): a server may ask during its first call. The SDK answers the 2026-07-28
    // `inputRequired` rounds through this same handler.
    if (onElicitation !== undefined) {
      client.setRequestHandler("elicitation/create", (request, context) =>
        onElicitation(request.params, context.mcpReq.signal),
      );
    }
    this.client = client;
    return client;
  }

  private guard(transport: Transport): ResponseIdGuard {
    const guard: ResponseIdGuard = new ResponseIdGuard(transport, {
      onUnexpectedResponse: () => this.events.onStrayResponse(),
      onProgress: (params) => this.events.onProgress(params),
      onTransportClose: () => {
        // A failed Streamable HTTP attempt closes its own transport before the SSE fallback.
        if (guard === this.activeGuard) this.events.onTransportClose();
      },
    });
    this.activeGuard = guard;
    return guard;
  }
}

async function withinLimit(work: Promise<unknown>, limitMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, limitMs);
  });
  const settled = work.then(
    () => undefined,
    () => undefined,
  );
  try {
    await Promise.race([settled, expired]);
  } finally {
    clearTimeout(timer);
  }
}
