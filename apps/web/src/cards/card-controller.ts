// The life of one card in the page, outside React: attach, bridge, sandbox, display modes, size,
// theme, teardown. The ordering rules of the MCP Apps spec:
// 1. Every handler is registered before `connect()` (createCardBridge).
// 2. The bridge is connected before the proxy is loaded, so the proxy's `sandbox-proxy-ready`
//    is heard; the view's HTML goes to the proxy only after that message (ViewDelivery).
// 3. Nothing is sent to the view before it says `initialized`; then, while the model still
//    writes the arguments, `tool-input-partial`s; then `tool-input` once, then `tool-result` or
//    `tool-cancelled` (ViewDelivery), then the host-context changes since its `ui/initialize`
//    (HostContextSync).
// 4. `ui/resource-teardown` (answered or timed out) comes before `card:teardown` and the close.
import type { AttachReply, PagePermissionName } from "@mcp-chat-host/protocol";
import type { AppBridge, McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";
import {
  oneQuestionPerSource,
  pagePermissionGrants,
  type PermissionGrantsAccess,
} from "../consent/permission-grants-access";
import {
  allowAttributeFor,
  declaredPermissions,
  permissionList,
  permissionsObject,
} from "../consent/permission-names";
import { requestValue } from "../socket/request";
import { cardViewAccess } from "../state/host-store";
import { grantedOf, undecidedOf } from "../state/permission-grants-store";
import { pageAttachQueue, type AttachQueue, type AttachTicket } from "./attach-queue";
import { createCardBridge } from "./card-bridge";
import {
  sandboxTransport,
  type CardCallbacks,
  type CardControllerOptions,
} from "./card-controller-options";
import { browserPageActions, createPageRequests, sendViewLog } from "./card-page-requests";
import {
  hasPageCard,
  isCurrentPageCard,
  registerPageCard,
  unregisterPageCard,
  type PageCard,
  type TeardownReason,
} from "./page-cards";
import { messageOf } from "./card-request-error";
import { listenToCardEvents } from "./card-socket-events";
import {
  initialCardViewState,
  type CardLogEntry,
  type CardViewAccess,
  type CardViewState,
} from "./card-view-state";
import { DownloadQuestion } from "./download-question";
import { measureElement, observeContainer, type BoxSize } from "./container-observer";
import {
  allowedDisplayModes,
  decideDisplayMode,
  type DisplayMode,
  type DisplayModeRequester,
} from "./display-mode";
import { containerDimensionsFor, initialFrameHeight, nextFrameHeight } from "./frame-size";
import { claimFullscreen, releaseFullscreen } from "./fullscreen-owner";
import { PersonQuestion } from "./person-question";
import { watchNearViewport } from "./near-viewport";
import { buildHostContext, cardHostCapabilities, cardHostInfo } from "./host-context";
import { HostContextSync } from "./host-context-sync";
import type { LiveViewControl } from "./live-view-budget";
import { countInFlight, reportTextOf } from "./page-request-tracking";
import { sandboxProblem } from "./sandbox-check";
import { keepSandboxWarm } from "./sandbox-warmup";
import { documentVariableReader, hostStyleVariables, type Theme } from "./style-variables";
import {
  globalTimers,
  teardownTimeoutMs,
  teardownWithTimeout,
  type TimerFunctions,
} from "./teardown-with-timeout";
import { ViewDelivery } from "./view-delivery";
import { attachWithHeldViews } from "./view-html-cache";

export type { CardCallbacks, CardControllerOptions } from "./card-controller-options";

/**
 * Runs one card: attaches it, creates and connects its bridge, loads its view in the sandbox,
 * answers its view, follows its size, display mode and theme, and tears it down. Writes what the
 * page shows into the cards store.
 */
export class CardController implements PageCard, LiveViewControl {
  readonly instanceId: string;
  readonly conversationId: string | null;
  readonly #options: CardControllerOptions;
  readonly #store: CardViewAccess;
  readonly #timers: TimerFunctions;
  readonly #now: () => number;
  /** Replaced when the view is loaded again (a permission answer changed). */
  #delivery: ViewDelivery;
  readonly #queue: AttachQueue;
  /** The first attach's place in the queue, until its attach is done. */
  #ticket: AttachTicket | null = null;
  readonly #stops: Array<() => void> = [];
  #reply: AttachReply | null = null;
  #bridge: AppBridge | null = null;
  #context: HostContextSync | null = null;
  #theme: Theme;
  #mode: DisplayMode = "inline";
  #frameHeight = initialFrameHeight;
  #measured: BoxSize = { width: 0, height: 0 };
  readonly #download = new DownloadQuestion((download) => this.#patch({ download }));
  readonly #displayQuestion = new PersonQuestion<{ mode: "fullscreen" }>((displayRequest) =>
    this.#patch({ displayRequest }),
  );
  readonly #permissionQuestion = new PersonQuestion<{
    permissions: readonly PagePermissionName[];
  }>((permissionRequest) => this.#patch({ permissionRequest }));
  readonly #grants: PermissionGrantsAccess;
  /** The person said no to this view's full-screen request: it is not asked again. */
  #fullscreenRefused = false;
  /** What stops with the current load of the view (its size observer). */
  readonly #viewStops: Array<() => void> = [];
  /** The `allow` value the current load of the view got. */
  #appliedAllow: string | null = null;
  #reloading: Promise<void> | null = null;
  #started = false;
  #releaseScheduled = false;
  #disposal: Promise<void> | null = null;
  #notifyServer = true;
  #disposeReason: TeardownReason = "unmounted";
  /** Paused to free a live view slot: the server keeps the card, the page shows a stand-in. */
  #pausing = false;
  /** The view's requests to the host that have not been answered yet. */
  readonly #inFlight = { count: 0 };

  constructor(options: CardControllerOptions) {
    this.#options = options;
    this.instanceId = options.card.instanceId;
    this.conversationId = options.card.conversationId;
    this.#store = options.store ?? cardViewAccess;
    this.#timers = options.timers ?? globalTimers;
    this.#now = options.now ?? Date.now;
    this.#queue = options.attachQueue ?? pageAttachQueue;
    this.#theme = options.theme;
    this.#grants = options.permissions ?? pagePermissionGrants;
    this.#delivery = this.#newDelivery(
      { result: options.card.result, cancelled: options.card.cancelled ?? null },
      options.card.inputStreaming === true,
    );
    registerPageCard(this);
    const state: CardViewState = initialCardViewState(options.card);
    if (options.card.closed === true) {
      state.status = "closed";
      state.error = "This app was closed.";
    }
    const resume = options.resume;
    if (resume?.frameHeight != null) {
      state.frameHeight = resume.frameHeight;
      this.#frameHeight = resume.frameHeight;
    }
    this.#store.put(this.instanceId, state);
    if (resume != null) {
      const at = new Date(resume.pausedAt).toLocaleTimeString([], {
        hour: "2-digit",
        minute: "2-digit",
      });
      this.#hostLog(
        "info",
        `The app was paused at ${at} while out of view, and opened again from its saved result.`,
      );
    }
  }

  /** Starts the card (once): listens to the socket and attaches. */
  start(): void {
    if (this.#started || this.#disposal !== null) return;
    this.#started = true;
    if (this.#options.card.closed === true) return;
    this.#listen();
    void this.#attach();
  }

  /**
   * Cancels a pending {@link releaseSoon}: React StrictMode runs an effect's cleanup and the
   * effect again at once, which must neither attach twice nor tear the card down.
   *
   * @returns true when a release was pending.
   */
  retain(): boolean {
    const pending = this.#releaseScheduled;
    this.#releaseScheduled = false;
    return pending;
  }

  /**
   * Tears the card down after the current task unless {@link retain} is called first, then
   * forgets its shown state.
   *
   * @param reason - sent with `card:teardown`.
   */
  releaseSoon(reason: TeardownReason): void {
    this.#releaseScheduled = true;
    queueMicrotask(() => {
      if (!this.#releaseScheduled) return;
      this.#releaseScheduled = false;
      void this.dispose(reason).then(() => this.#forget());
    });
  }

  /** Follows the page's theme (theme and style variables of the host context). */
  setTheme(theme: Theme): void {
    if (theme === this.#theme) return;
    this.#theme = theme;
    // Read the page's colours after the effects of this render ran: the page may switch its
    // theme attribute in one of them.
    queueMicrotask(() => {
      if (this.#theme !== theme) return;
      this.#publish({
        theme,
        styles: { variables: hostStyleVariables(theme, documentVariableReader()) },
      });
    });
  }

  /**
   * Switches the display mode if allowed (see `decideDisplayMode`); the view is told.
   *
   * @returns the mode in effect afterwards.
   */
  setDisplayMode(
    requested: DisplayMode,
    requestedBy: DisplayModeRequester = "person",
  ): DisplayMode {
    if (this.#disposal !== null) return this.#mode;
    // The person chose: a view's open question about full screen is moot.
    if (requestedBy === "person") this.#displayQuestion.withdraw();
    const next = decideDisplayMode({
      requested,
      current: this.#mode,
      declared: this.#declaredModes(),
      requestedBy,
    });
    if (next !== this.#mode) {
      if (next === "fullscreen") {
        claimFullscreen(this.instanceId, () => this.setDisplayMode("inline", "person"));
      } else if (this.#mode === "fullscreen") {
        releaseFullscreen(this.instanceId);
      }
      this.#mode = next;
      this.#patch({ displayMode: next });
      this.#publish({
        displayMode: next,
        containerDimensions: containerDimensionsFor(next, this.#measured),
      });
    }
    return next;
  }

  /**
   * Attaches the card again after the socket reconnected and the page said `session:hello`
   * again: the server may have restarted and lost the card. The view keeps running and is sent
   * nothing again; a failure goes to the card's log.
   *
   * @returns when the server answered; never rejects.
   */
  async reattach(): Promise<void> {
    if (this.#reply === null || this.#disposal !== null) return;
    // Every card attaches again after a reconnect: they take turns, as when they first attached.
    const ticket = this.#queue.enter(this.#options.holder);
    try {
      if (!(await ticket.granted) || this.#disposal !== null) return;
      await this.#sendAttach();
    } catch (error) {
      this.#hostLog(
        "warning",
        `Could not attach the app again after reconnecting: ${messageOf(error)}`,
      );
    } finally {
      ticket.release();
    }
  }

  /**
   * A view's `ui/request-display-mode`. Modes it did not declare are refused (the answer is the
   * mode in effect). Full screen covers the whole window, so a view gets it only after the
   * person said yes to a question the host shows; after a no, later requests are refused
   * without asking again. Other declared modes (inline, picture in picture) are switched to.
   *
   * @returns the mode in effect afterwards.
   */
  async requestDisplayModeFromView(requested: unknown): Promise<DisplayMode> {
    if (this.#disposal !== null) return this.#mode;
    const next = decideDisplayMode({
      requested,
      current: this.#mode,
      declared: this.#declaredModes(),
      requestedBy: "view",
    });
    if (next !== "fullscreen" || this.#mode === "fullscreen") {
      return this.setDisplayMode(next, "view");
    }
    if (this.#fullscreenRefused) {
      this.#hostLog("info", "The app asked for full screen again; you said no, so it stays here.");
      return this.#mode;
    }
    if (this.#displayQuestion.open) return this.#mode;
    const accepted = await this.#displayQuestion.ask({ mode: "fullscreen" });
    if (accepted === null || this.#disposal !== null) return this.#mode;
    if (!accepted) {
      this.#fullscreenRefused = true;
      this.#hostLog("info", "You kept the app in the conversation instead of full screen.");
      return this.#mode;
    }
    return this.setDisplayMode("fullscreen", "view");
  }

  /**
   * The person allowed or withdrew one of the view's permissions, for every card of its source
   * (the card's permission panel); the source's open cards load again with the change.
   */
  answerPermission(name: PagePermissionName, granted: boolean): void {
    if (this.#disposal !== null) return;
    this.#grants.answer(this.#options.card.source, [name], granted ? "granted" : "refused");
    this.#hostLog(
      "info",
      granted
        ? `You allowed the app to use ${permissionList([name])}.`
        : `You withdrew the app's use of ${permissionList([name])}.`,
    );
  }

  /** Answers the pending download question, if any. */
  answerDownload(accepted: boolean): void {
    this.#download.answer(accepted);
  }

  /**
   * Whether the card is in use, so it must stay live: shown full screen or in picture in
   * picture, asking the person something, attaching or loading, waiting for its opening call's
   * result, or with a request of its view not yet answered (a tool call waiting for approval).
   * Focus is the live view budget's to check (it knows the card's whole slot).
   */
  inUse(): boolean {
    if (this.#disposal !== null) return false;
    if (this.#mode !== "inline" || this.#reloading !== null || this.#inFlight.count > 0) {
      return true;
    }
    const state = this.#store.get(this.instanceId);
    if (state === undefined) return false;
    if (state.download !== null || state.displayRequest !== null) return true;
    if (state.permissionRequest !== null) return true;
    if (state.status === "attaching" || state.status === "loading") return true;
    const settled =
      this.#delivery.result !== null ||
      this.#delivery.cancelled !== null ||
      state.result !== null ||
      state.cancelled !== null;
    return !settled && state.status !== "error" && state.status !== "closed";
  }

  /**
   * Pauses the card to free a live view slot: `ui/resource-teardown` to its view (bounded wait),
   * then the bridge is closed. The server is not told: the card stays open there, and its last
   * report stays in what the model is told; attaching it again restores it from its saved
   * arguments and result.
   *
   * @returns when the view is torn down; never rejects.
   */
  pause(): Promise<void> {
    if (this.#disposal === null) this.#pausing = true;
    return this.dispose("unmounted", { notifyServer: false });
  }

  /** The person closed the card: tear it down, then tell the page to remove it. */
  async close(): Promise<void> {
    await this.dispose("closed");
    this.#callbacks().onClose(this.instanceId);
  }

  /**
   * Tears the card down (once; later calls return the same promise): `ui/resource-teardown` to an
   * initialised view, waiting for any answer or {@link teardownTimeoutMs}; then `card:teardown`
   * to the server; then the bridge is closed.
   *
   * @param reason - sent with `card:teardown`.
   * @param options - `notifyServer: false` when the server closed the card itself; `message`
   *   to show in place of the view.
   * @returns when done; never rejects.
   */
  dispose(
    reason: TeardownReason,
    options: { notifyServer?: boolean; message?: string } = {},
  ): Promise<void> {
    if (this.#disposal !== null) return this.#disposal;
    this.#releaseScheduled = false;
    // A card still waiting for its turn leaves the queue now; one attaching frees its slot when
    // the server answered (see #attach).
    if (this.#ticket?.waiting === true) this.#ticket.release();
    this.#disposeReason = reason;
    this.#notifyServer = options.notifyServer ?? true;
    this.#displayQuestion.withdraw();
    this.#permissionQuestion.withdraw();
    releaseFullscreen(this.instanceId);
    this.#disposal = this.#runDisposal(options.message ?? null);
    return this.#disposal;
  }

  async #runDisposal(message: string | null): Promise<void> {
    this.#download.answer(false);
    this.#patch({ status: "closing" });
    const bridge = this.#bridge;
    if (bridge !== null && this.#delivery.initialized) {
      const outcome = await teardownWithTimeout(
        () => bridge.teardownResource({}),
        teardownTimeoutMs,
        this.#timers,
      );
      if (outcome === "timed-out") {
        this.#hostLog(
          "warning",
          "The app did not answer the teardown request in time; it was closed anyway.",
        );
      }
    }
    this.#delivery.stop();
    // An attach still under way sends this itself when its reply comes (see #attach).
    if (this.#reply !== null && this.#notifyServer) this.#sendTeardown();
    for (const stop of this.#viewStops.splice(0)) stop();
    for (const stop of this.#stops.splice(0)) stop();
    if (bridge !== null) await bridge.close().catch(() => undefined);
    // A paused card's stand-in takes its place; the closed text must not flash before it.
    if (!this.#pausing) {
      this.#patch({
        status: "closed",
        error: message,
        download: null,
        displayRequest: null,
        permissionRequest: null,
      });
    }
    unregisterPageCard(this);
  }

  #sendTeardown(): void {
    requestValue(this.#options.socket, "card:teardown", {
      instanceId: this.instanceId,
      reason: this.#disposeReason,
    }).catch((error: unknown) => {
      console.warn(
        `Card ${this.instanceId}: the server did not confirm its teardown: ${messageOf(error)}`,
      );
    });
  }

  #forget(): void {
    unregisterPageCard(this);
    // A newer mount of the same card keeps its state.
    if (!hasPageCard(this.instanceId)) this.#store.remove(this.instanceId);
  }

  #callbacks(): CardCallbacks {
    return this.#options.callbacks();
  }

  #patch(patch: Partial<CardViewState>): void {
    // A replaced controller (same instance id, newer mount) must not overwrite the new state.
    if (isCurrentPageCard(this)) this.#store.patch(this.instanceId, patch);
  }

  #appendLog(entry: CardLogEntry): void {
    if (isCurrentPageCard(this)) this.#store.appendLog(this.instanceId, entry);
    this.#callbacks().onLog?.(this.instanceId, entry);
  }

  #hostLog(level: CardLogEntry["level"], text: string): void {
    this.#appendLog({ at: this.#now(), origin: "host", level, data: text });
  }

  #declaredModes(): readonly DisplayMode[] | undefined {
    if (!this.#delivery.initialized) return undefined;
    return this.#bridge?.getAppCapabilities()?.availableDisplayModes;
  }

  #listen(): void {
    const stop = listenToCardEvents(this.#options.socket, this.instanceId, {
      inputPartial: (args) => {
        if (this.#delivery.offerPartial(args)) this.#patch({ arguments: args });
      },
      input: (args) => {
        if (this.#delivery.offerInput(args)) this.#patch({ arguments: args });
      },
      result: (result) => {
        if (this.#delivery.offerResult(result)) this.#patch({ result, cancelled: null });
      },
      cancelled: (reason) => {
        if (this.#delivery.offerCancelled(reason)) this.#patch({ cancelled: reason });
      },
      closed: (reason) => void this.dispose("closed", { notifyServer: false, message: reason }),
      composerFill: (chatId, text) => this.#callbacks().onCompose?.(chatId, text),
    });
    this.#stops.push(stop);
    this.#stops.push(
      this.#grants.subscribe(this.#options.card.source, () => this.#onPermissionsChanged()),
    );
  }

  /** Waits for the card's turn in the attach queue, attaches, frees the turn. */
  async #attach(): Promise<void> {
    const { holder } = this.#options;
    const ticket = this.#queue.enter(holder);
    this.#ticket = ticket;
    const stopWatching = watchNearViewport(holder, (near) => ticket.setNearViewport(near));
    const waited = ticket.waiting;
    if (waited) this.#patch({ status: "waiting" });
    try {
      const granted = await ticket.granted;
      stopWatching();
      if (!granted || this.#disposal !== null) return;
      if (waited) this.#patch({ status: "attaching" });
      await this.#attachNow();
    } finally {
      stopWatching();
      ticket.release();
      this.#ticket = null;
    }
  }

  async #attachNow(): Promise<void> {
    const { iframe } = this.#options;
    let reply = await this.#requestAttach();
    if (reply === null) return;
    const declared = declaredPermissions(reply.page.permissions);
    if (undecidedOf(this.#grants.answersFor(reply.source), declared).length > 0) {
      // The person may take a while to answer: other cards attach meanwhile.
      this.#ticket?.release();
      if (!(await this.#askPermissions(reply, declared))) return;
      // Attach again with the answer: the sandbox's proxy URL carries only granted permissions.
      reply = await this.#requestAttach();
      if (reply === null) return;
    }
    const granted = grantedOf(this.#grants.answersFor(reply.source), declared);
    const problem = sandboxProblem(reply.page);
    const bridge = problem === null ? this.#createBridge(reply, granted) : null;
    this.#patch({
      status: problem === null ? "loading" : "error",
      error: problem,
      title: reply.title,
      source: reply.source,
      tool: reply.tool.name,
      arguments: this.#delivery.latestInput ?? reply.toolInput,
      result: this.#delivery.result ?? reply.toolResult,
      cancelled:
        this.#delivery.result === null && reply.toolResult === null
          ? (this.#delivery.cancelled ?? reply.cancelled)
          : null,
      reportedAt: reply.reportedAt,
      prefersBorder: reply.page.prefersBorder ?? null,
      permissions: { declared, granted },
    });
    if (bridge === null) return;
    try {
      // Only what the person granted: the browser's own prompt names the host, not the app, and
      // its grant would hold for every view.
      const allow = allowAttributeFor(granted);
      if (allow !== "") iframe.setAttribute("allow", allow);
      else iframe.removeAttribute("allow");
      this.#appliedAllow = allow;
      const createTransport = this.#options.createTransport ?? sandboxTransport;
      // The proxy URL's origin is the sandbox origin (sandboxProblem checked), in normal form.
      await bridge.connect(createTransport(iframe, new URL(reply.page.proxyUrl).origin));
    } catch (error) {
      this.#patch({
        status: "error",
        error: `The app's view could not be started: ${messageOf(error)}`,
      });
      return;
    }
    if (this.#disposal !== null) return;
    this.#viewStops.push(
      observeContainer(this.#options.holder, (size) => {
        this.#measured = size;
        this.#publish({ containerDimensions: containerDimensionsFor(this.#mode, size) });
      }),
    );
    // Loading the proxy only now: its `sandbox-proxy-ready` must reach a connected bridge.
    iframe.src = reply.page.proxyUrl;
    keepSandboxWarm(reply.page.proxyUrl);
  }

  /**
   * Sends `card:attach` with the permissions the person granted the card's source.
   *
   * @returns the reply; null when the attach failed (the card shows why) or the card was torn
   *   down meanwhile.
   */
  async #requestAttach(): Promise<AttachReply | null> {
    const first = this.#reply === null;
    let reply: AttachReply;
    try {
      // The acknowledgement timeout starts here, not while the card waited for its turn.
      reply = await this.#sendAttach();
    } catch (error) {
      // The slot is free as soon as the card shows why it failed.
      this.#ticket?.release();
      if (this.#disposal === null) this.#patch({ status: "error", error: messageOf(error) });
      return null;
    }
    this.#reply = reply;
    if (this.#disposal !== null) {
      // Torn down while attaching: the server attached it, so tell it (unless it closed it, or
      // the teardown already went out after an earlier attach).
      if (first && this.#notifyServer) this.#sendTeardown();
      return null;
    }
    return reply;
  }

  /** Sends `card:attach`; the page's HTML comes from the tab's copy when it holds the page. */
  #sendAttach(): Promise<AttachReply> {
    const socket = this.#options.socket;
    return attachWithHeldViews(
      (payload) => requestValue(socket, "card:attach", payload),
      this.#attachPayload(),
      this.#options.card.source,
    );
  }

  /** `card:attach`'s payload: the card and the permissions the person granted its source. */
  #attachPayload(): { instanceId: string; permissions?: PagePermissionName[] } {
    const permissions = grantedOf(this.#grants.answersFor(this.#options.card.source));
    return permissions.length === 0
      ? { instanceId: this.instanceId }
      : { instanceId: this.instanceId, permissions };
  }

  /**
   * Asks the person about the permissions of the card's source they have not answered yet,
   * naming the app, and records the answer. One question per source at a time: a card that
   * waited finds the answer given for another card of the same source.
   *
   * @returns false when the card went away before an answer.
   */
  #askPermissions(reply: AttachReply, declared: readonly PagePermissionName[]): Promise<boolean> {
    const source = reply.source;
    return oneQuestionPerSource(source, async () => {
      const undecided = undecidedOf(this.#grants.answersFor(source), declared);
      if (undecided.length === 0) return this.#disposal === null;
      if (this.#disposal !== null) return false;
      this.#patch({ title: reply.title, source });
      const accepted = await this.#permissionQuestion.ask({ permissions: undecided });
      if (accepted === null || this.#disposal !== null) return false;
      this.#grants.answer(source, undecided, accepted ? "granted" : "refused");
      this.#hostLog(
        "info",
        accepted
          ? `You allowed this app to use ${permissionList(undecided)}.`
          : `You did not allow this app to use ${permissionList(undecided)}.`,
      );
      return true;
    });
  }

  /**
   * The person changed an answer about the source's permissions (the card's permission panel,
   * or another card of the same source): a running view keeps what its frame was given until it
   * loads again, so it is loaded again when what it may use changed.
   */
  #onPermissionsChanged(): void {
    if (this.#appliedAllow === null || this.#disposal !== null) return;
    const declared = declaredPermissions(this.#reply?.page.permissions);
    const granted = grantedOf(this.#grants.answersFor(this.#options.card.source), declared);
    this.#patch({ permissions: { declared, granted } });
    if (allowAttributeFor(granted) !== this.#appliedAllow) void this.reloadView();
  }

  /**
   * Loads the view again in the same iframe element: `ui/resource-teardown` to the current view
   * (bounded wait), its bridge closed, then attach, a new bridge and the proxy loaded again, as
   * the first time. Used when the frame's `allow` must change: a browser applies it only when the
   * frame loads. The view's state is lost, as on any reload.
   *
   * @returns when the new load has started; never rejects.
   */
  reloadView(): Promise<void> {
    if (this.#reloading !== null) return this.#reloading;
    const reloading = this.#runReload().finally(() => {
      if (this.#reloading === reloading) this.#reloading = null;
    });
    this.#reloading = reloading;
    return reloading;
  }

  async #runReload(): Promise<void> {
    if (this.#disposal !== null || this.#appliedAllow === null) return;
    const bridge = this.#bridge;
    if (bridge !== null && this.#delivery.initialized) {
      await teardownWithTimeout(() => bridge.teardownResource({}), teardownTimeoutMs, this.#timers);
    }
    if (this.#disposal !== null) return;
    this.#delivery.stop();
    for (const stop of this.#viewStops.splice(0)) stop();
    if (bridge !== null) await bridge.close().catch(() => undefined);
    if (this.#disposal !== null) return;
    this.#bridge = null;
    this.#context = null;
    this.#appliedAllow = null;
    this.#delivery = this.#newDelivery(
      { result: this.#delivery.result, cancelled: this.#delivery.cancelled },
      false,
    );
    this.#hostLog("info", "The app was loaded again, so the change to its permissions applies.");
    this.#patch({ status: "loading", declaredModes: null, delivered: false });
    if (this.#mode !== "inline") this.setDisplayMode("inline", "person");
    await this.#attachNow();
  }

  #newDelivery(
    outcome: { result: Record<string, unknown> | null; cancelled: string | null },
    streaming: boolean,
  ): ViewDelivery {
    return new ViewDelivery(
      outcome,
      (kind, text) =>
        kind === "load"
          ? this.#patch({ status: "error", error: text })
          : this.#hostLog(kind === "repeat" ? "warning" : "error", text),
      { streaming, delivered: () => this.#patch({ delivered: true }) },
    );
  }

  #createBridge(reply: AttachReply, granted: readonly PagePermissionName[]): AppBridge {
    this.#measured = measureElement(this.#options.holder);
    const hostContext = buildHostContext({
      theme: this.#theme,
      displayMode: this.#mode,
      containerDimensions: containerDimensionsFor(this.#mode, this.#measured),
      tool: reply.tool,
      readVariable: documentVariableReader(),
    });
    this.#context = new HostContextSync(hostContext);
    const requests = createPageRequests({
      instanceId: this.instanceId,
      generation: reply.generation,
      socket: this.#options.socket,
      page: this.#options.page ?? browserPageActions,
      log: (entry) => this.#appendLog({ ...entry, at: this.#now() }),
      askDownload: (question) =>
        this.#disposal === null ? this.#download.ask(question) : Promise.resolve(false),
      reported: (reportedAt) => this.#patch({ reportedAt }),
    });
    const { updateModelContext } = requests;
    const tracked = countInFlight(
      {
        ...requests,
        updateModelContext: async (params: Parameters<typeof updateModelContext>[0]) => {
          const answer = await updateModelContext(params);
          const text = reportTextOf(params);
          if (text !== null) this.#callbacks().onReport?.(this.instanceId, text);
          return answer;
        },
      },
      this.#inFlight,
    );
    const bridge = createCardBridge(
      {
        hostInfo: cardHostInfo,
        capabilities: cardHostCapabilities(reply.page),
        hostContext,
        handlers: {
          ...tracked,
          requestDisplayMode: async (params) => ({
            mode: await this.requestDisplayModeFromView(params.mode),
          }),
          sandboxReady: () => this.#delivery.sandboxReady(),
          initialized: () => void this.#onInitialized(),
          sizeChange: (params) => this.#onSizeChange(params.height),
          loggingMessage: (params) => this.#onViewLog(params),
          requestTeardown: () => {
            this.#hostLog("info", "The app asked to be closed.");
            void this.close();
          },
        },
      },
      this.#options.construct,
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

  async #onInitialized(): Promise<void> {
    const sending = this.#disposal === null ? this.#delivery.initialize() : null;
    if (sending === null) return;
    const declared = this.#declaredModes();
    this.#patch({ status: "ready", declaredModes: declared ?? null });
    await sending;
    // A mode the person chose before the view declared its modes may not be one of them.
    if (!allowedDisplayModes(declared, "person").includes(this.#mode)) {
      this.setDisplayMode("inline", "person");
    }
    this.#flushContext();
  }

  #onSizeChange(height: unknown): void {
    // Fullscreen and picture-in-picture have a fixed size: the host owns it.
    if (this.#mode !== "inline" || this.#disposal !== null) return;
    const next = nextFrameHeight({ current: this.#frameHeight, reported: height });
    if (next === null) return;
    this.#frameHeight = next;
    this.#patch({ frameHeight: next });
  }

  #onViewLog(params: {
    level: CardLogEntry["level"];
    logger?: string | undefined;
    data?: unknown;
  }): void {
    const entry: CardLogEntry = {
      at: this.#now(),
      origin: "view",
      level: params.level,
      data: params.data,
    };
    if (params.logger !== undefined) entry.logger = params.logger;
    this.#appendLog(entry);
    sendViewLog(this.#options.socket, this.instanceId, params);
  }

  /** Updates the host context; the view hears the changed fields once it has initialised. */
  #publish(patch: McpUiHostContext): void {
    this.#context?.update(patch);
    this.#flushContext();
  }

  #flushContext(): void {
    const bridge = this.#bridge;
    if (bridge === null || this.#context === null) return;
    if (!this.#delivery.initialized || this.#disposal !== null) return;
    const changes = this.#context.takeChanges();
    if (changes === null) return;
    Promise.resolve(bridge.sendHostContextChange(changes)).catch((error: unknown) => {
      this.#hostLog("warning", `Could not tell the app about a change: ${messageOf(error)}`);
    });
  }
}
