// What a card's view may use beyond its frame (camera, microphone, geolocation, clipboard
// write): the person is asked, naming the app, before the view loads; the answer holds for the
// card's source; and a view whose permissions changed is loaded again, since a browser applies a
// frame's `allow` only when the frame loads.
import type { PagePermissionName } from "@mcp-chat-host/protocol";
import {
  oneQuestionPerSource,
  pagePermissionGrants,
  type PermissionGrantsAccess,
} from "../../consent/permission-grants-access";
import { allowAttributeFor, permissionList } from "../../consent/permission-names";
import { grantedOf, undecidedOf } from "../../state/permission-grants-store";
import { PersonQuestion } from "../person-question";
import type { CardCore } from "./card-core";

/** What consent asks of the rest of the card when the view loads again. */
export interface ReloadSteps {
  /** Brings the card back inline (a new load starts inline). */
  backInline: () => void;
  /** Attaches again and opens the new load of the view. */
  attachAgain: () => Promise<void>;
}

/** The person's answers about one card's powerful permissions, and the reload they cause. */
export class CardConsent {
  readonly #core: CardCore;
  readonly #grants: PermissionGrantsAccess;
  readonly #steps: ReloadSteps;
  readonly #question = new PersonQuestion<{ permissions: readonly PagePermissionName[] }>(
    (permissionRequest) => this.#core.patch({ permissionRequest }),
  );
  #reloading: Promise<void> | null = null;

  constructor(core: CardCore, steps: ReloadSteps) {
    this.#core = core;
    this.#grants = core.options.permissions ?? pagePermissionGrants;
    this.#steps = steps;
  }

  /** Whether the view is being loaded again. */
  get reloading(): boolean {
    return this.#reloading !== null;
  }

  /**
   * Follows the person's answers for the card's source (this card's panel or another card's).
   *
   * @returns a function that stops following them.
   */
  listen(): () => void {
    return this.#grants.subscribe(this.#core.options.card.source, () => this.#changed());
  }

  /** The permissions the person granted the source, among `declared` (all when absent). */
  granted(source: string, declared?: readonly PagePermissionName[]): PagePermissionName[] {
    return grantedOf(this.#grants.answersFor(source), declared);
  }

  /** Whether the person has not answered for some of `declared` yet. */
  undecided(source: string, declared: readonly PagePermissionName[]): boolean {
    return undecidedOf(this.#grants.answersFor(source), declared).length > 0;
  }

  /**
   * Asks the person about the permissions of the source they have not answered yet, naming the
   * app, and records the answer. One question per source at a time: a card that waited finds
   * the answer given for another card of the same source.
   *
   * @returns false when the card went away before an answer.
   */
  ask(source: string, declared: readonly PagePermissionName[]): Promise<boolean> {
    return oneQuestionPerSource(source, async () => {
      const undecided = undecidedOf(this.#grants.answersFor(source), declared);
      if (undecided.length === 0) return !this.#core.disposed;
      if (this.#core.disposed) return false;
      const accepted = await this.#question.ask({ permissions: undecided });
      if (accepted === null || this.#core.disposed) return false;
      this.#grants.answer(source, undecided, accepted ? "granted" : "refused");
      this.#core.hostLog(
        "info",
        accepted
          ? `You allowed this app to use ${permissionList(undecided)}.`
          : `You did not allow this app to use ${permissionList(undecided)}.`,
      );
      return true;
    });
  }

  /**
   * The person allowed or withdrew one of the view's permissions, for every card of its source
   * (the card's permission panel); the source's open cards load again with the change.
   */
  answer(name: PagePermissionName, granted: boolean): void {
    if (this.#core.disposed) return;
    this.#grants.answer(this.#core.options.card.source, [name], granted ? "granted" : "refused");
    this.#core.hostLog(
      "info",
      granted
        ? `You allowed the app to use ${permissionList([name])}.`
        : `You withdrew the app's use of ${permissionList([name])}.`,
    );
  }

  /** The card is torn down: its question goes. */
  withdraw(): void {
    this.#question.withdraw();
  }

  /**
   * Loads the view again in the same iframe element: `ui/resource-teardown` to the current view
   * (bounded wait), its bridge closed, then attach, a new bridge and the proxy loaded again, as
   * the first time. The view's state is lost, as on any reload.
   *
   * @returns when the new load has started; never rejects.
   */
  reload(): Promise<void> {
    if (this.#reloading !== null) return this.#reloading;
    const reloading = this.#runReload().finally(() => {
      if (this.#reloading === reloading) this.#reloading = null;
    });
    this.#reloading = reloading;
    return reloading;
  }

  /**
   * The person changed an answer about the source's permissions: a running view keeps what its
   * frame was given until it loads again, so it is loaded again when what it may use changed.
   */
  #changed(): void {
    const core = this.#core;
    if (core.view.appliedAllow === null || core.disposed) return;
    const declared = core.view.declaredPermissions;
    const granted = this.granted(core.options.card.source, declared);
    core.patch({ permissions: { declared, granted } });
    if (allowAttributeFor(granted) !== core.view.appliedAllow) void this.reload();
  }

  async #runReload(): Promise<void> {
    const core = this.#core;
    const view = core.view;
    if (core.disposed || view.appliedAllow === null) return;
    await view.tearDownView();
    if (core.disposed) return;
    view.stop();
    await view.close();
    if (core.disposed) return;
    core.view = view.next();
    core.hostLog("info", "The app was loaded again, so the change to its permissions applies.");
    core.patch({ status: "loading", declaredModes: null, delivered: false });
    this.#steps.backInline();
    await this.#steps.attachAgain();
  }
}
