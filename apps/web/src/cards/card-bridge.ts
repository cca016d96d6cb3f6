// One AppBridge per card, with every handler in place before `connect()`: a view may send requests
// right after the handshake, and a capability announced without a handler answers "method not
// found". The bridge has no MCP client (`null`): each request goes to the server over the socket,
// where the card's own source and the gate answer it. A request for anything else never reaches
// the bridge: the host answers it itself, naming the method.
import {
  AppBridge,
  type AppBridgeEventMap,
  type HostOptions,
  type McpUiHostCapabilities,
  type McpUiHostContext,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import type {
  Implementation,
  JSONRPCMessage,
  MessageExtraInfo,
  Transport,
  TransportSendOptions,
} from "@modelcontextprotocol/client";

// The bridge's own handler type for a setter, without its second (`extra`) argument.
type RequestHandler<K extends keyof AppBridge> =
  NonNullable<AppBridge[K]> extends (params: infer Params, extra: never) => infer Result
    ? (params: Params) => Result
    : never;

/** What a card answers for each request of its view, and how it reacts to its notifications. */
export interface CardPageHandlers {
  /** `tools/call` of the card's own source. */
  callTool: RequestHandler<"oncalltool">;
  /** `resources/read` of the card's own source. */
  readResource: RequestHandler<"onreadresource">;
  /** `resources/list` of the card's own source. */
  listResources: RequestHandler<"onlistresources">;
  /** `resources/templates/list` of the card's own source. */
  listResourceTemplates: RequestHandler<"onlistresourcetemplates">;
  /** `ui/message`. */
  message: RequestHandler<"onmessage">;
  /** `ui/update-model-context`. */
  updateModelContext: RequestHandler<"onupdatemodelcontext">;
  /** `ui/open-link`. */
  openLink: RequestHandler<"onopenlink">;
  /** `ui/download-file`. */
  downloadFile: RequestHandler<"ondownloadfile">;
  /** `ui/request-display-mode`. */
  requestDisplayMode: RequestHandler<"onrequestdisplaymode">;
  /** The proxy said `sandbox-proxy-ready`. */
  sandboxReady: (params: AppBridgeEventMap["sandboxready"]) => void;
  /** The view said `initialized`. */
  initialized: (params: AppBridgeEventMap["initialized"]) => void;
  /** The view reported its size. */
  sizeChange: (params: AppBridgeEventMap["sizechange"]) => void;
  /** The view logged (`notifications/message`). */
  loggingMessage: (params: AppBridgeEventMap["loggingmessage"]) => void;
  /** The view asked to be closed. */
  requestTeardown: (params: AppBridgeEventMap["requestteardown"]) => void;
}

/** Creates the AppBridge object (injectable, so tests can watch what happens before `connect`). */
export type AppBridgeConstructor = (
  hostInfo: Implementation,
  capabilities: McpUiHostCapabilities,
  options: HostOptions,
) => AppBridge;

/** The SDK's AppBridge, without an MCP client. */
const constructAppBridge: AppBridgeConstructor = (hostInfo, capabilities, options) =>
  new AppBridge(null, hostInfo, capabilities, options);

/** The request-handler setters {@link createCardBridge} fills, one per announced capability. */
export const cardRequestHandlerSetters = [
  "oncalltool",
  "onreadresource",
  "onlistresources",
  "onlistresourcetemplates",
  "onmessage",
  "onupdatemodelcontext",
  "onopenlink",
  "ondownloadfile",
  "onrequestdisplaymode",
] as const;

/** The bridge events {@link createCardBridge} listens to. */
export const cardBridgeEvents = [
  "sandboxready",
  "initialized",
  "sizechange",
  "loggingmessage",
  "requestteardown",
] as const;

/**
 * The requests a card's view may make of the host: the MCP requests the host passes on to the
 * card's own source (`tools/call`, `resources/read`, `resources/list`, `resources/templates/list`,
 * `ping`) and the `ui/*` requests the bridge answers.
 */
const passedOnRequestMethods: ReadonlySet<string> = new Set([
  "ping",
  "tools/call",
  "resources/read",
  "resources/list",
  "resources/templates/list",
  "ui/initialize",
  "ui/message",
  "ui/update-model-context",
  "ui/open-link",
  "ui/download-file",
  "ui/request-display-mode",
]);

/** JSON-RPC "method not found". */
const METHOD_NOT_FOUND = -32601;

/**
 * The answer to a view's request the host does not pass on: it names the method, so the view's
 * author sees what is missing.
 *
 * @returns `The host doesn't pass on <method>.`
 */
function notPassedOnMessage(method: string): string {
  return `The host doesn't pass on ${method}.`;
}

/**
 * A transport that answers every request outside {@link passedOnRequestMethods} itself with
 * JSON-RPC -32601 and {@link notPassedOnMessage}, and hands the rest to the bridge. Without it
 * the SDK answers "Method not found" for methods without a handler, and some methods (those of
 * a protocol revision the bridge does not speak) never reach any fallback.
 */
class PassedOnRequestsOnly implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(private readonly inner: Transport) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message, extra) => {
      if ("method" in message && "id" in message && !passedOnRequestMethods.has(message.method)) {
        this.inner
          .send({
            jsonrpc: "2.0",
            id: message.id,
            error: { code: METHOD_NOT_FOUND, message: notPassedOnMessage(message.method) },
          })
          .catch((error: unknown) =>
            this.onerror?.(error instanceof Error ? error : new Error(String(error))),
          );
        return;
      }
      this.onmessage?.(message, extra);
    };
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * Creates a card's bridge and registers every request handler and event listener on it. The
 * bridge is not connected: the caller connects it once its transport exists, wrapped in
 * {@link passedOnRequestsOnly}.
 *
 * @param options - host info, capabilities, the initial host context and the handlers.
 * @param construct - creates the AppBridge; default {@link constructAppBridge}.
 * @returns the bridge, ready for `connect()`.
 */
export function createCardBridge(
  options: {
    hostInfo: Implementation;
    capabilities: McpUiHostCapabilities;
    hostContext: McpUiHostContext;
    handlers: CardPageHandlers;
  },
  construct: AppBridgeConstructor = constructAppBridge,
): AppBridge {
  const { handlers } = options;
  const bridge = construct(options.hostInfo, options.capabilities, {
    hostContext: options.hostContext,
  });
  bridge.oncalltool = (params) => handlers.callTool(params);
  bridge.onreadresource = (params) => handlers.readResource(params);
  bridge.onlistresources = (params) => handlers.listResources(params);
  bridge.onlistresourcetemplates = (params) => handlers.listResourceTemplates(params);
  bridge.onmessage = (params) => handlers.message(params);
  bridge.onupdatemodelcontext = (params) => handlers.updateModelContext(params);
  bridge.onopenlink = (params) => handlers.openLink(params);
  bridge.ondownloadfile = (params) => handlers.downloadFile(params);
  bridge.onrequestdisplaymode = (params) => handlers.requestDisplayMode(params);
  bridge.addEventListener("sandboxready", (params) => handlers.sandboxReady(params));
  bridge.addEventListener("initialized", (params) => handlers.initialized(params));
  bridge.addEventListener("sizechange", (params) => handlers.sizeChange(params));
  bridge.addEventListener("loggingmessage", (params) => handlers.loggingMessage(params));
  bridge.addEventListener("requestteardown", (params) => handlers.requestTeardown(params));
  return bridge;
}

/**
 * Wraps a card's transport before its bridge connects to it: every request of the view outside
 * {@link passedOnRequestMethods} is answered `-32601` with {@link notPassedOnMessage}, the rest
 * reaches the bridge.
 *
 * @returns the transport to pass to the bridge's `connect()`.
 */
export function passedOnRequestsOnly(transport: Transport): Transport {
  return new PassedOnRequestsOnly(transport);
}
