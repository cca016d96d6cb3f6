// What a card's view is sent, and when (spec 2026-01-26, "Lifecycle"):
// 1. Its HTML goes to the proxy only after the proxy said `sandbox-proxy-ready`, once.
// 2. Nothing goes to the view before it said `initialized`.
// 3. Then `tool-input` once, then `tool-result` or `tool-cancelled` once, whenever the opening
//    call's outcome is known (already at attach, or later from the server).
// 4. While the model still writes the arguments (`inputStreaming`), `tool-input-partial` with the
//    latest guess (only the newest of those that came before `initialized`); never one after
//    `tool-input`. Every notification goes out in turn, each after the previous was sent.
import { errorMessage } from "@mcp-chat-host/protocol";
import type { CallToolResult } from "@modelcontextprotocol/client";
import type {
  AppBridge,
  McpUiResourceCsp,
  McpUiResourcePermissions,
} from "@modelcontextprotocol/ext-apps/app-bridge";

/** The view's page and input, from the attach reply. */
export interface DeliveredPage {
  html: string;
  csp?: Record<string, unknown> | undefined;
  permissions?: Record<string, unknown> | undefined;
  toolInput: Record<string, unknown>;
  /** True when `toolInput` is only a guess: the model was still writing the arguments. */
  inputStreaming?: boolean | undefined;
}

/** How the delivery reports a problem (it never throws). */
export type DeliveryProblem = (kind: "load" | "send" | "repeat", text: string) => void;

/**
 * Holds the opening call's outcome and sends the view what it should get, in the spec's order.
 * The outcome may be known before the bridge exists (the card's `cards` entry, at the start or
 * changed during attach); it is sent when the view is ready for it.
 */
export class ViewDelivery {
  #bridge: AppBridge | null = null;
  #page: DeliveredPage | null = null;
  #result: Record<string, unknown> | null;
  #cancelled: string | null;
  #resourceSent = false;
  #initialized = false;
  #streaming: boolean;
  #partial: Record<string, unknown> | null = null;
  #partialSent: Record<string, unknown> | null = null;
  #finalInput: Record<string, unknown> | null = null;
  #inputTried = false;
  #inputSent = false;
  #queue: Promise<void> = Promise.resolve();
  #finalSent = false;
  #stopped = false;
  readonly #problem: DeliveryProblem;
  readonly #delivered: (() => void) | undefined;

  /**
   * @param outcome - the opening call's result, or why it has none, as known so far.
   * @param problem - reports what could not be sent.
   * @param input - `streaming`: whether the card opened while the model still wrote its
   *   arguments; `delivered`: called once the view was sent its input and the call's outcome
   *   (result or cancellation), the point from which it shows what the call returned.
   */
  constructor(
    outcome: { result: Record<string, unknown> | null; cancelled: string | null },
    problem: DeliveryProblem,
    input: { streaming: boolean; delivered?: () => void } = { streaming: false },
  ) {
    this.#streaming = input.streaming;
    this.#delivered = input.delivered;
    this.#result = outcome.result;
    this.#cancelled = outcome.result === null ? outcome.cancelled : null;
    this.#problem = problem;
  }

  /** Whether the view said `initialized`. */
  get initialized(): boolean {
    return this.#initialized;
  }

  /** The newest arguments heard from the server (final, else the latest guess), if any. */
  get latestInput(): Record<string, unknown> | null {
    return this.#finalInput ?? this.#partial;
  }

  /** The opening call's result, if known. */
  get result(): Record<string, unknown> | null {
    return this.#result;
  }

  /** Why the opening call has no result, if known. */
  get cancelled(): string | null {
    return this.#cancelled;
  }

  /**
   * Binds the bridge and the page once attached; the attach reply's outcome fills in what is
   * not known yet.
   */
  bind(
    bridge: AppBridge,
    page: DeliveredPage,
    outcome: { result: Record<string, unknown> | null; cancelled: string | null },
  ): void {
    this.#bridge = bridge;
    this.#page = page;
    // The reply may be older than final arguments already heard; the final arguments win.
    if (this.#finalInput === null) {
      this.#streaming = page.inputStreaming === true;
      // An empty guess tells the view nothing; it waits for the first real one.
      if (this.#streaming && this.#partial === null && Object.keys(page.toolInput).length > 0) {
        this.#partial = page.toolInput;
      }
    }
    if (this.#result === null && outcome.result !== null) this.offerResult(outcome.result);
    else if (outcome.cancelled !== null) this.offerCancelled(outcome.cancelled);
  }

  /**
   * The model wrote more of the arguments (`tool-input-delta`). Ignored once the arguments are
   * final or `tool-input` went out; before `initialized`, only the newest is kept.
   *
   * @returns true when it became the latest guess.
   */
  offerPartial(args: Record<string, unknown>): boolean {
    if (!this.#streaming || this.#finalInput !== null || this.#inputTried) return false;
    this.#partial = args;
    void this.#deliver();
    return true;
  }

  /**
   * The arguments are final (`tool-input-available`): they become the view's `tool-input`. Ignored when
   * final arguments are already known.
   *
   * @returns true when they became the input.
   */
  offerInput(args: Record<string, unknown>): boolean {
    if (this.#finalInput !== null || this.#inputTried) return false;
    this.#finalInput = args;
    this.#streaming = false;
    void this.#deliver();
    return true;
  }

  /**
   * The opening call returned. Ignored when an outcome is already known.
   *
   * @returns true when it became the outcome.
   */
  offerResult(result: Record<string, unknown>): boolean {
    if (this.#result !== null || this.#finalSent) return false;
    this.#result = result;
    this.#cancelled = null;
    void this.#deliver();
    return true;
  }

  /**
   * The opening call failed or was stopped. Ignored when an outcome is already known.
   *
   * @returns true when it became the outcome.
   */
  offerCancelled(reason: string): boolean {
    if (this.#result !== null || this.#cancelled !== null) return false;
    this.#cancelled = reason;
    void this.#deliver();
    return true;
  }

  /** The proxy said `sandbox-proxy-ready`: send it the view's HTML (once). */
  sandboxReady(): void {
    const bridge = this.#bridge;
    const page = this.#page;
    if (bridge === null || page === null || this.#stopped) return;
    if (this.#resourceSent) {
      this.#problem("repeat", "The sandbox said it was ready a second time; ignored.");
      return;
    }
    this.#resourceSent = true;
    const params: { html: string; csp?: McpUiResourceCsp; permissions?: McpUiResourcePermissions } =
      { html: page.html };
    if (page.csp !== undefined) params.csp = page.csp as McpUiResourceCsp;
    if (page.permissions !== undefined) {
      params.permissions = page.permissions as McpUiResourcePermissions;
    }
    bridge.sendSandboxResourceReady(params).catch((error: unknown) => {
      this.#problem("load", `The app's view could not be loaded: ${errorMessage(error)}`);
    });
  }

  /**
   * The view said `initialized`: sends its input (or, while the arguments stream, the latest
   * guess), then the outcome if known.
   *
   * @returns null when ignored (a repeat, or stopped); else a promise that resolves once the
   *   input or guess (and the outcome, if known) were sent. `initialized` is true as soon as this
   *   returns.
   */
  initialize(): Promise<void> | null {
    const bridge = this.#bridge;
    const page = this.#page;
    if (bridge === null || page === null || this.#stopped) return null;
    if (this.#initialized) {
      this.#problem("repeat", "The app initialised a second time; its input was not sent again.");
      return null;
    }
    this.#initialized = true;
    return this.#deliver();
  }

  /** Sends nothing more (the card is being torn down). */
  stop(): void {
    this.#stopped = true;
  }

  /** Sends what is due next, after whatever is being sent (one notification at a time). */
  #deliver(): Promise<void> {
    const next = this.#queue.then(() => this.#sendDue());
    this.#queue = next;
    return next;
  }

  /**
   * The final arguments, or null while the model is still writing them. An outcome means the call
   * ran, so its arguments are as final as they will get even if `tool-input-available` was missed.
   */
  #inputNow(page: DeliveredPage): Record<string, unknown> | null {
    if (this.#finalInput !== null) return this.#finalInput;
    if (!this.#streaming) return page.toolInput;
    if (this.#result !== null || this.#cancelled !== null) return this.#partial ?? page.toolInput;
    return null;
  }

  async #sendDue(): Promise<void> {
    const bridge = this.#bridge;
    const page = this.#page;
    if (bridge === null || page === null || !this.#initialized || this.#stopped) return;
    if (!this.#inputTried) {
      const input = this.#inputNow(page);
      if (input === null) {
        const partial = this.#partial;
        if (partial === null || partial === this.#partialSent) return;
        this.#partialSent = partial;
        try {
          await bridge.sendToolInputPartial({ arguments: partial });
        } catch (error) {
          this.#problem("send", `Could not send the app its partial input: ${errorMessage(error)}`);
        }
        return;
      }
      this.#inputTried = true;
      try {
        await bridge.sendToolInput({ arguments: input });
        this.#inputSent = true;
      } catch (error) {
        this.#problem("send", `Could not send the app its input: ${errorMessage(error)}`);
        return;
      }
    }
    await this.#sendFinal();
  }

  async #sendFinal(): Promise<void> {
    const bridge = this.#bridge;
    if (bridge === null || !this.#inputSent || this.#finalSent || this.#stopped) return;
    try {
      if (this.#result !== null) {
        this.#finalSent = true;
        await bridge.sendToolResult(this.#result as CallToolResult);
      } else if (this.#cancelled !== null) {
        this.#finalSent = true;
        await bridge.sendToolCancelled({ reason: this.#cancelled });
      } else {
        return;
      }
      if (!this.#stopped) this.#delivered?.();
    } catch (error) {
      this.#problem("send", `Could not send the app its result: ${errorMessage(error)}`);
    }
  }
}
