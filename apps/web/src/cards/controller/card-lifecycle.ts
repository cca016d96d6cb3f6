// A card's life in the page: it waits for its turn to attach, attaches (asking the person about
// its view's permissions first when needed), attaches again after a reconnect, and is torn
// down: `ui/resource-teardown` (answered or timed out) comes before `card:teardown` and the
// bridge's close. Pausing tears the view down without telling the server.
import { errorMessage, type AttachReply, type PagePermissionName } from "@mcp-chat-host/protocol";
import { declaredPermissions } from "../../consent/permission-names";
import { requestValue } from "../../socket/request";
import { pageAttachQueue, type AttachQueue, type AttachTicket } from "../attach-queue";
import { watchNearViewport } from "../near-viewport";
import type { TeardownReason } from "../../state/page-cards";
import { sandboxProblem } from "../sandbox-check";
import { attachWithHeldViews } from "../view-html-cache";
import type { CardConsent } from "./card-consent";
import type { CardCore } from "./card-core";

/** What the lifecycle asks of the rest of the card. */
export interface LifecycleSteps {
  /** Starts following what a running card follows; returns what stops each. */
  follow: () => Array<() => void>;
  /** Opens the view of an attached card with the permissions the person granted. */
  openView: (reply: AttachReply, granted: readonly PagePermissionName[]) => Promise<void>;
  /** The card is torn down: every question it asked the person goes unanswered. */
  withdrawQuestions: () => void;
}

/** Attach, reattach, pause and teardown of one card. */
export class CardLifecycle {
  readonly #core: CardCore;
  readonly #consent: CardConsent;
  readonly #steps: LifecycleSteps;
  readonly #queue: AttachQueue;
  /** The first attach's place in the queue, until its attach is done. */
  #ticket: AttachTicket | null = null;
  readonly #stops: Array<() => void> = [];
  #reply: AttachReply | null = null;
  #started = false;
  #releaseScheduled = false;
  #disposal: Promise<void> | null = null;
  #notifyServer = true;
  #disposeReason: TeardownReason = "unmounted";
  /** Paused to free a live view slot: the server keeps the card, the page shows a stand-in. */
  #pausing = false;

  constructor(core: CardCore, consent: CardConsent, steps: LifecycleSteps) {
    this.#core = core;
    this.#consent = consent;
    this.#steps = steps;
    this.#queue = core.options.attachQueue ?? pageAttachQueue;
  }

  /** Starts the card (once); a card already closed only shows why. */
  start(closed: boolean): void {
    if (this.#started || this.#disposal !== null) return;
    this.#started = true;
    if (closed) return;
    this.#stops.push(...this.#steps.follow());
    void this.#attach();
  }

  /** Cancels a pending {@link releaseSoon}; true when one was pending. */
  retain(): boolean {
    const pending = this.#releaseScheduled;
    this.#releaseScheduled = false;
    return pending;
  }

  /** Tears the card down after the current task unless {@link retain} is called first. */
  releaseSoon(reason: TeardownReason): void {
    this.#releaseScheduled = true;
    queueMicrotask(() => {
      if (!this.#releaseScheduled) return;
      this.#releaseScheduled = false;
      void this.dispose(reason).then(() => this.#core.forget());
    });
  }

  /**
   * Attaches the card again after a reconnect, taking turns as the first attach did; the view
   * keeps running and is sent nothing again; a failure goes to the card's log.
   */
  async reattach(): Promise<void> {
    if (this.#reply === null || this.#disposal !== null) return;
    const ticket = this.#queue.enter(this.#core.options.holder);
    try {
      if (!(await ticket.granted) || this.#disposal !== null) return;
      await this.#sendAttach();
    } catch (error) {
      this.#core.hostLog(
        "warning",
        `Could not attach the app again after reconnecting: ${errorMessage(error)}`,
      );
    } finally {
      ticket.release();
    }
  }

  /** Tears the view down without telling the server (see `CardController.pause`). */
  pause(): Promise<void> {
    if (this.#disposal === null) this.#pausing = true;
    return this.dispose("unmounted", { notifyServer: false });
  }

  /** The person closed the card: tear it down, then tell the page to remove it. */
  async close(): Promise<void> {
    await this.dispose("closed");
    this.#core.callbacks().onClose(this.#core.instanceId);
  }

  /** Tears the card down, once (see `CardController.dispose`). */
  dispose(
    reason: TeardownReason,
    options: { notifyServer?: boolean; message?: string } = {},
  ): Promise<void> {
    if (this.#disposal !== null) return this.#disposal;
    this.#core.markDisposed();
    this.#releaseScheduled = false;
    // A card still waiting for its turn leaves the queue now; one attaching frees its slot when
    // the server answered (see #attach).
    if (this.#ticket?.waiting === true) this.#ticket.release();
    this.#disposeReason = reason;
    this.#notifyServer = options.notifyServer ?? true;
    this.#steps.withdrawQuestions();
    this.#disposal = this.#runDisposal(options.message ?? null);
    return this.#disposal;
  }

  /**
   * Attaches now: `card:attach`, the permission question if the view declares permissions the
   * person has not answered (then attaches again with the answer), then opens the view.
   */
  async attachNow(): Promise<void> {
    const core = this.#core;
    let reply = await this.#requestAttach();
    if (reply === null) return;
    const declared = declaredPermissions(reply.page.permissions);
    if (this.#consent.undecided(reply.source, declared)) {
      // The person may take a while to answer: other cards attach meanwhile.
      this.#ticket?.release();
      if (!(await this.#consent.ask(reply.source, declared))) return;
      // Attach again with the answer: the sandbox's proxy URL carries only granted permissions.
      reply = await this.#requestAttach();
      if (reply === null) return;
    }
    const granted = this.#consent.granted(reply.source, declared);
    const problem = sandboxProblem(reply.page);
    core.patch({
      status: problem === null ? "loading" : "error",
      error: problem,
      reportedAt: reply.reportedAt,
      prefersBorder: reply.page.prefersBorder ?? null,
      permissions: { declared, granted },
    });
    if (problem === null) await this.#steps.openView(reply, granted);
  }

  async #runDisposal(message: string | null): Promise<void> {
    const core = this.#core;
    core.patch({ status: "closing" });
    const view = core.view;
    if ((await view.tearDownView()) === "timed-out") {
      core.hostLog(
        "warning",
        "The app did not answer the teardown request in time; it was closed anyway.",
      );
    }
    view.stop();
    // An attach still under way sends this itself when its reply comes (see #requestAttach).
    if (this.#reply !== null && this.#notifyServer) this.#sendTeardown();
    for (const stop of this.#stops.splice(0)) stop();
    await view.close();
    // A paused card's stand-in takes its place; the closed text must not flash before it.
    if (!this.#pausing) {
      core.patch({
        status: "closed",
        error: message,
        download: null,
        displayRequest: null,
        permissionRequest: null,
      });
    }
    core.unregister();
  }

  /** Waits for the card's turn in the attach queue, attaches, frees the turn. */
  async #attach(): Promise<void> {
    const { holder } = this.#core.options;
    const ticket = this.#queue.enter(holder);
    this.#ticket = ticket;
    const stopWatching = watchNearViewport(holder, (near) => ticket.setNearViewport(near));
    const waited = ticket.waiting;
    if (waited) this.#core.patch({ status: "waiting" });
    try {
      const granted = await ticket.granted;
      stopWatching();
      if (!granted || this.#disposal !== null) return;
      if (waited) this.#core.patch({ status: "attaching" });
      await this.attachNow();
    } finally {
      stopWatching();
      ticket.release();
      this.#ticket = null;
    }
  }

  /**
   * Sends `card:attach`.
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
      if (this.#disposal === null)
        this.#core.patch({ status: "error", error: errorMessage(error) });
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

  /**
   * Sends `card:attach` with the permissions the person granted the card's source; the page's
   * HTML comes from the tab's copy when it holds the page.
   */
  #sendAttach(): Promise<AttachReply> {
    const { socket, card } = this.#core.options;
    const permissions = this.#consent.granted(card.source);
    const payload =
      permissions.length === 0
        ? { instanceId: card.instanceId }
        : { instanceId: card.instanceId, permissions };
    return attachWithHeldViews(
      (attach) => requestValue(socket, "card:attach", attach),
      payload,
      card.source,
    );
  }

  #sendTeardown(): void {
    const { instanceId } = this.#core;
    requestValue(this.#core.options.socket, "card:teardown", {
      instanceId,
      reason: this.#disposeReason,
    }).catch((error: unknown) => {
      console.warn(
        `Card ${instanceId}: the server did not confirm its teardown: ${errorMessage(error)}`,
      );
    });
  }
}
