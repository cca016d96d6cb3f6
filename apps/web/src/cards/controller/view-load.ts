// One load of a card's view in its frame: the bridge with every handler in place, its transport,
// what the view is sent and when (ViewDelivery), and the host context it hears. Loading the view
// again (a permission answer changed) starts a new one that keeps the opening call's outcome.
// The order, as the MCP Apps spec wants it:
// 1. Every handler is registered before `connect()` (createCardBridge).
// 2. The bridge is connected before the proxy is loaded, so the proxy's `sandbox-proxy-ready`
//    is heard; the view's HTML goes to the proxy only after that message (ViewDelivery).
// 3. Nothing is sent before the view says `initialized`; then its input and the call's outcome
//    (ViewDelivery), then the host-context changes since its `ui/initialize` (HostContextSync).
import { errorMessage, type AttachReply, type PagePermissionName } from "@mcp-chat-host/protocol";
import type { AppBridge, McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";
import {
  allowAttributeFor,
  declaredPermissions,
  permissionsObject,
} from "../../consent/permission-names";
import { createCardBridge, passedOnRequestsOnly, type CardPageHandlers } from "../card-bridge";
import { sandboxTransport, type CardControllerOptions } from "../card-controller-options";
import type { PageRequestHandlers } from "../card-page-requests";
import type { CardLogEntry, CardViewState } from "../../state/types/card-view-state";
import { observeContainer, type BoxSize } from "../container-observer";
import type { DisplayMode } from "../display-mode";
import { cardHostCapabilities, cardHostInfo } from "../host-context";
import { HostContextSync } from "../host-context-sync";
import { keepSandboxWarm } from "../sandbox-warmup";
import {
  teardownTimeoutMs,
  teardownWithTimeout,
  type TeardownOutcome,
  type TimerFunctions,
} from "../teardown-with-timeout";
import { ViewDelivery } from "../view-delivery";

/** What a load needs of its card (`CardCore` is one). */
export interface ViewLoadCard {
  readonly disposed: boolean;
  readonly options: Pick<
    CardControllerOptions,
    "iframe" | "holder" | "construct" | "createTransport"
  >;
  readonly timers: TimerFunctions;
  patch(patch: Partial<CardViewState>): void;
  hostLog(level: CardLogEntry["level"], text: string): void;
}

/** The opening call's outcome, as known so far. */
export interface CallOutcome {
  result: Record<string, unknown> | null;
  cancelled: string | null;
}

/** How the card answers its view, given to {@link ViewLoad.open}. */
export interface ViewAnswers {
  /** The host context the view gets with `ui/initialize`. */
  hostContext: McpUiHostContext;
  /** The view's requests that go to the server or the page (`createPageRequests`). */
  requests: PageRequestHandlers;
  requestDisplayMode: (requested: unknown) => Promise<DisplayMode>;
  sizeChange: (height: unknown) => void;
  loggingMessage: CardPageHandlers["loggingMessage"];
  requestTeardown: () => void;
  /** The container was measured again. */
  resized: (size: BoxSize) => void;
  /**
   * The view said `initialized` (the first time): `declared` is its display modes, `sent`
   * resolves once its input (and the outcome, if known) went out.
   */
  initialized: (declared: readonly DisplayMode[] | undefined, sent: Promise<void>) => void;
}

/** One load of a card's view; the first exists before the attach, to hold what is heard. */
export class ViewLoad {
  readonly #card: ViewLoadCard;
  readonly #delivery: ViewDelivery;
  #bridge: AppBridge | null = null;
  #context: HostContextSync | null = null;
  /** What stops with this load (its size observer). */
  readonly #stops: Array<() => void> = [];
  #appliedAllow: string | null = null;
  #declared: readonly PagePermissionName[] = [];

  /**
   * @param outcome - the opening call's outcome as known so far.
   * @param streaming - whether the model still writes the opening call's arguments.
   */
  constructor(card: ViewLoadCard, outcome: CallOutcome, streaming: boolean) {
    this.#card = card;
    this.#delivery = new ViewDelivery(
      outcome,
      (kind, text) =>
        kind === "load"
          ? card.patch({ status: "error", error: text })
          : card.hostLog(kind === "repeat" ? "warning" : "error", text),
      { streaming, delivered: () => card.patch({ delivered: true }) },
    );
  }

  /** The next load of the view: the outcome stays, the arguments are final by then. */
  next(): ViewLoad {
    return new ViewLoad(this.#card, this.outcome, false);
  }

  /** The opening call's outcome as this load knows it. */
  get outcome(): CallOutcome {
    return { result: this.#delivery.result, cancelled: this.#delivery.cancelled };
  }

  /** Whether the view said `initialized`. */
  get initialized(): boolean {
    return this.#delivery.initialized;
  }

  /** The frame's `allow` this load got; null before it was connected. */
  get appliedAllow(): string | null {
    return this.#appliedAllow;
  }

  /** The powerful permissions the view's page declares, once it is opened. */
  get declaredPermissions(): readonly PagePermissionName[] {
    return this.#declared;
  }

  /** The model wrote more of the arguments (ignored once they are final). */
  offerPartial(args: Record<string, unknown>): void {
    this.#delivery.offerPartial(args);
  }

  /** The arguments are final. */
  offerInput(args: Record<string, unknown>): void {
    this.#delivery.offerInput(args);
  }

  /** The opening call returned. */
  offerResult(result: Record<string, unknown>): void {
    this.#delivery.offerResult(result);
  }

  /** The opening call failed or was stopped. */
  offerCancelled(reason: string): void {
    this.#delivery.offerCancelled(reason);
  }

  /** The display modes the view declared, once it initialised. */
  declaredModes(): readonly DisplayMode[] | undefined {
    if (!this.#delivery.initialized) return undefined;
    return this.#bridge?.getAppCapabilities()?.availableDisplayModes;
  }

  /**
   * Creates the bridge, connects it to the frame's proxy (only what the person granted reaches
   * the frame's `allow`), then loads the proxy. A failure shows on the card.
   *
   * @returns when the proxy is loading, or the card shows why it is not; never rejects.
   */
  async open(
    reply: AttachReply,
    granted: readonly PagePermissionName[],
    answers: ViewAnswers,
  ): Promise<void> {
    const { iframe, holder } = this.#card.options;
    this.#declared = declaredPermissions(reply.page.permissions);
    const bridge = this.#createBridge(reply, granted, answers);
    try {
      // Only what the person granted: the browser's own prompt names the host, not the app, and
      // its grant would hold for every view.
      const allow = allowAttributeFor(granted);
      if (allow !== "") iframe.setAttribute("allow", allow);
      else iframe.removeAttribute("allow");
      this.#appliedAllow = allow;
      const createTransport = this.#card.options.createTransport ?? sandboxTransport;
      // The proxy URL's origin is the sandbox origin (sandboxProblem checked), in normal form.
      const transport = createTransport(iframe, new URL(reply.page.proxyUrl).origin);
      await bridge.connect(passedOnRequestsOnly(transport));
    } catch (error) {
      this.#card.patch({
        status: "error",
        error: `The app's view could not be started: ${errorMessage(error)}`,
      });
      return;
    }
    if (this.#card.disposed) return;
    this.#stops.push(observeContainer(holder, answers.resized));
    // Loading the proxy only now: its `sandbox-proxy-ready` must reach a connected bridge.
    iframe.src = reply.page.proxyUrl;
    keepSandboxWarm(reply.page.proxyUrl);
  }

  /** Updates the host context; the view hears the changed fields once it has initialised. */
  publish(patch: McpUiHostContext): void {
    this.#context?.update(patch);
    this.flush();
  }

  /** Sends the view the host-context changes it has not heard yet. */
  flush(): void {
    const bridge = this.#bridge;
    if (bridge === null || this.#context === null) return;
    if (!this.#delivery.initialized || this.#card.disposed) return;
    const changes = this.#context.takeChanges();
    if (changes === null) return;
    Promise.resolve(bridge.sendHostContextChange(changes)).catch((error: unknown) => {
      this.#card.hostLog(
        "warning",
        `Could not tell the app about a change: ${errorMessage(error)}`,
      );
    });
  }

  /**
   * `ui/resource-teardown` to an initialised view, waiting for its answer at most
   * {@link teardownTimeoutMs}.
   *
   * @returns how it went; null when the view never initialised (nothing was asked).
   */
  async tearDownView(): Promise<TeardownOutcome | null> {
    const bridge = this.#bridge;
    if (bridge === null || !this.#delivery.initialized) return null;
    return teardownWithTimeout(
      () => bridge.teardownResource({}),
      teardownTimeoutMs,
      this.#card.timers,
    );
  }

  /** Sends the view nothing more and stops watching its size. */
  stop(): void {
    this.#delivery.stop();
    for (const stop of this.#stops.splice(0)) stop();
  }

  /** Closes the bridge (the view's requests no longer reach the page); never rejects. */
  async close(): Promise<void> {
    await this.#bridge?.close().catch(() => undefined);
  }

  #createBridge(
    reply: AttachReply,
    granted: readonly PagePermissionName[],
    answers: ViewAnswers,
  ): AppBridge {
    this.#context = new HostContextSync(answers.hostContext);
    const bridge = createCardBridge(
      {
        hostInfo: cardHostInfo,
        capabilities: cardHostCapabilities(reply.page),
        hostContext: answers.hostContext,
        handlers: {
          ...answers.requests,
          requestDisplayMode: async (params) => ({
            mode: await answers.requestDisplayMode(params.mode),
          }),
          sandboxReady: () => this.#delivery.sandboxReady(),
          initialized: () => this.#onInitialized(answers),
          sizeChange: (params) => answers.sizeChange(params.height),
          loggingMessage: (params) => answers.loggingMessage(params),
          requestTeardown: () => answers.requestTeardown(),
        },
      },
      this.#card.options.construct,
    );
    this.#bridge = bridge;
    this.#delivery.bind(
      bridge,
      {
        html: reply.page.html ?? "",
        csp: reply.page.csp,
        permissions:
          granted.length === 0
            ? undefined
            : (permissionsObject(granted) as Record<string, unknown>),
        toolInput: reply.toolInput,
        inputStreaming: reply.inputStreaming,
      },
      { result: reply.toolResult, cancelled: reply.cancelled },
    );
    return bridge;
  }

  #onInitialized(answers: ViewAnswers): void {
    const sent = this.#card.disposed ? null : this.#delivery.initialize();
    if (sent === null) return;
    answers.initialized(this.declaredModes(), sent);
  }
}
