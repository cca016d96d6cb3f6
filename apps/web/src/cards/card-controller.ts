// The life of one card in the page, outside React. The façade that `CardView` and the live view
// budget see; the work is in its parts (`controller/`):
// - `card-lifecycle.ts`: attach (taking turns), reattach, pause, teardown;
// - `card-consent.ts`: the permission question, its answers, and the reload they cause;
// - `card-presentation.ts`: display mode, theme, size, and the host context they change;
// - `view-load.ts`: one load of the view (bridge, transport, what it is sent and when), and
//   `view-answers.ts`: how the card answers it;
// - `card-facts.ts`: what the server says about the card, followed in the `cards` slice.
import type { PagePermissionName } from "@mcp-chat-host/protocol";
import { cardEntryOf } from "../state/cards-slice";
import { cardEntryAccess, cardViewAccess } from "../state/host-store";
import type { CardEntry } from "../state/types/cards";
import type { CardControllerOptions } from "./card-controller-options";
import type { DisplayMode, DisplayModeRequester } from "./display-mode";
import { DownloadQuestion } from "./download-question";
import type { LiveViewControl } from "./live-view-budget";
import { registerPageCard, type PageCard, type TeardownReason } from "../state/page-cards";
import type { Theme } from "../state/theme-store";
import { CardConsent } from "./controller/card-consent";
import { CardCore } from "./controller/card-core";
import type { CardEntryAccess } from "../state/types/cards";
import { followCardFacts } from "./controller/card-facts";
import { CardLifecycle } from "./controller/card-lifecycle";
import { CardPresentation } from "./controller/card-presentation";
import { viewAnswers } from "./controller/view-answers";
import { ViewLoad } from "./controller/view-load";

export type { CardControllerOptions } from "./card-controller-options";

/**
 * Runs one card: attaches it, loads its view in the sandbox, answers its view, follows its size,
 * display mode and theme, tells it what the server says about its card, and tears it down.
 * Writes what the page shows into the card's `cardViews` entry.
 */
export class CardController implements PageCard, LiveViewControl {
  readonly instanceId: string;
  readonly conversationId: string | null;
  readonly #core: CardCore;
  readonly #facts: CardEntryAccess;
  /** The card's entry as the controller was set up from it. */
  readonly #known: CardEntry;
  readonly #lifecycle: CardLifecycle;
  readonly #consent: CardConsent;
  readonly #presentation: CardPresentation;
  readonly #download: DownloadQuestion;
  /** The view's requests to the host that have not been answered yet. */
  readonly #inFlight = { count: 0 };

  constructor(options: CardControllerOptions) {
    this.instanceId = options.card.instanceId;
    this.conversationId = options.card.conversationId;
    this.#facts = options.cards ?? cardEntryAccess;
    const known = this.#facts.get(this.instanceId) ?? cardEntryOf(options.card);
    this.#known = known;
    this.#core = new CardCore(
      this,
      options,
      options.store ?? cardViewAccess,
      (core) =>
        new ViewLoad(core, { result: known.result, cancelled: known.cancelled }, !known.inputFinal),
    );
    const core = this.#core;
    this.#download = new DownloadQuestion((download) => core.patch({ download }));
    this.#presentation = new CardPresentation(
      core,
      options.theme,
      options.resume?.frameHeight ?? null,
    );
    this.#consent = new CardConsent(core, {
      backInline: () => {
        if (this.#presentation.mode !== "inline") this.setDisplayMode("inline", "person");
      },
      attachAgain: () => this.#lifecycle.attachNow(),
    });
    this.#lifecycle = new CardLifecycle(core, this.#consent, {
      follow: () => [this.#followFacts(), this.#consent.listen()],
      openView: (reply, granted) =>
        core.view.open(
          reply,
          granted,
          viewAnswers(reply, {
            core,
            presentation: this.#presentation,
            download: this.#download,
            inFlight: this.#inFlight,
            close: () => void this.close(),
          }),
        ),
      withdrawQuestions: () => {
        this.#download.answer(false);
        this.#presentation.withdraw();
        this.#consent.withdraw();
      },
    });
    registerPageCard(this);
    core.showStart(this.#closedBecause(), this.#presentation.frameHeight);
  }

  /** Starts the card (once): follows its facts and the person's answers, and attaches. */
  start(): void {
    this.#lifecycle.start(this.#closedBecause() !== null);
  }

  /**
   * Cancels a pending {@link releaseSoon}: React StrictMode runs an effect's cleanup and the
   * effect again at once, which must neither attach twice nor tear the card down.
   *
   * @returns true when a release was pending.
   */
  retain(): boolean {
    return this.#lifecycle.retain();
  }

  /**
   * Tears the card down after the current task unless {@link retain} is called first, then
   * forgets its shown state.
   *
   * @param reason - sent with `card:teardown`.
   */
  releaseSoon(reason: TeardownReason): void {
    this.#lifecycle.releaseSoon(reason);
  }

  /** Follows the page's theme (theme and style variables of the host context). */
  setTheme(theme: Theme): void {
    this.#presentation.setTheme(theme);
  }

  /**
   * Switches the display mode if allowed (see `decideDisplayMode`); the view is told.
   *
   * @returns the mode in effect afterwards.
   */
  setDisplayMode(requested: DisplayMode, requestedBy?: DisplayModeRequester): DisplayMode {
    return this.#presentation.setDisplayMode(requested, requestedBy);
  }

  /**
   * A view's `ui/request-display-mode`: full screen only after the person said yes (see
   * `CardPresentation.requestFromView`).
   *
   * @returns the mode in effect afterwards.
   */
  requestDisplayModeFromView(requested: unknown): Promise<DisplayMode> {
    return this.#presentation.requestFromView(requested);
  }

  /**
   * Attaches the card again after the socket reconnected and the page said `session:hello`
   * again: the server may have restarted and lost the card. The view keeps running and is sent
   * nothing again; a failure goes to the card's log.
   *
   * @returns when the server answered; never rejects.
   */
  reattach(): Promise<void> {
    return this.#lifecycle.reattach();
  }

  /**
   * The person allowed or withdrew one of the view's permissions, for every card of its source
   * (the card's permission panel); the source's open cards load again with the change.
   */
  answerPermission(name: PagePermissionName, granted: boolean): void {
    this.#consent.answer(name, granted);
  }

  /**
   * Loads the view again in the same iframe element (its `allow` must change: a browser applies
   * it only when the frame loads). The view's state is lost, as on any reload.
   *
   * @returns when the new load has started; never rejects.
   */
  reloadView(): Promise<void> {
    return this.#consent.reload();
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
    const core = this.#core;
    if (core.disposed) return false;
    if (this.#presentation.mode !== "inline" || this.#consent.reloading) return true;
    if (this.#inFlight.count > 0) return true;
    const state = core.shown;
    if (state === undefined) return false;
    if (state.download !== null || state.displayRequest !== null) return true;
    if (state.permissionRequest !== null) return true;
    if (state.status === "attaching" || state.status === "loading") return true;
    const { result, cancelled } = core.view.outcome;
    const settled = result !== null || cancelled !== null;
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
    return this.#lifecycle.pause();
  }

  /** The person closed the card: tear it down, then tell the page to remove it. */
  close(): Promise<void> {
    return this.#lifecycle.close();
  }

  /**
   * Tears the card down (once; later calls return the same promise): `ui/resource-teardown` to an
   * initialised view, waiting for any answer or the teardown timeout; then `card:teardown` to the
   * server; then the bridge is closed.
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
    return this.#lifecycle.dispose(reason, options);
  }

  /** Why the card shows closed from the start (saved closed, or closed by the server), or null. */
  #closedBecause(): string | null {
    const known = this.#known;
    if (known.closedByServer !== null) return known.closedByServer;
    return known.closed !== null || this.#core.options.card.closed === true
      ? "This app was closed."
      : null;
  }

  /** Hands each new fact of the card's entry to the current load of the view. */
  #followFacts(): () => void {
    const core = this.#core;
    return followCardFacts(this.#facts, this.instanceId, this.#known, {
      inputPartial: (args) => core.view.offerPartial(args),
      input: (args) => core.view.offerInput(args),
      result: (result) => core.view.offerResult(result),
      cancelled: (reason) => core.view.offerCancelled(reason),
      closedByServer: (reason) =>
        void this.dispose("closed", { notifyServer: false, message: reason }),
    });
  }
}
