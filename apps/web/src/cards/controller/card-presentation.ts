// How a card is shown: its display mode (inline, full screen, picture in picture), the page's
// theme, and its frame's size; each change reaches the view through its host context.
import type { McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";
import { measureElement, type BoxSize } from "../container-observer";
import {
  allowedDisplayModes,
  decideDisplayMode,
  type DisplayMode,
  type DisplayModeRequester,
} from "../display-mode";
import { initialFrameHeight } from "../../state/types/card-view-state";
import { containerDimensionsFor, nextFrameHeight } from "../frame-size";
import { claimFullscreen, releaseFullscreen } from "../fullscreen-owner";
import { buildHostContext, type HostContextInput } from "../host-context";
import { PersonQuestion } from "../person-question";
import type { Theme } from "../../state/theme-store";
import { documentVariableReader, hostStyleVariables } from "../style-variables";
import type { CardCore } from "./card-core";

/** A card's display mode, theme and size. */
export class CardPresentation {
  readonly #core: CardCore;
  #theme: Theme;
  #mode: DisplayMode = "inline";
  #frameHeight: number;
  #measured: BoxSize = { width: 0, height: 0 };
  readonly #question = new PersonQuestion<{ mode: "fullscreen" }>((displayRequest) =>
    this.#core.patch({ displayRequest }),
  );
  /** The person said no to this view's full-screen request: it is not asked again. */
  #fullscreenRefused = false;

  /** @param frameHeight - the frame's height to start with (a resumed card keeps its own). */
  constructor(core: CardCore, theme: Theme, frameHeight: number | null) {
    this.#core = core;
    this.#theme = theme;
    this.#frameHeight = frameHeight ?? initialFrameHeight;
  }

  /** The display mode in effect. */
  get mode(): DisplayMode {
    return this.#mode;
  }

  /** The frame's height inline, in pixels. */
  get frameHeight(): number {
    return this.#frameHeight;
  }

  /**
   * The host context a new load of the view starts with: theme, style variables, display mode,
   * the container's size (measured now) and the tool.
   */
  hostContextFor(tool: HostContextInput["tool"]): McpUiHostContext {
    this.#measured = measureElement(this.#core.options.holder);
    return buildHostContext({
      theme: this.#theme,
      displayMode: this.#mode,
      containerDimensions: containerDimensionsFor(this.#mode, this.#measured),
      tool,
      readVariable: documentVariableReader(),
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
      this.#core.view.publish({
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
    if (this.#core.disposed) return this.#mode;
    // The person chose: a view's open question about full screen is moot.
    if (requestedBy === "person") this.#question.withdraw();
    const next = decideDisplayMode({
      requested,
      current: this.#mode,
      declared: this.#core.view.declaredModes(),
      requestedBy,
    });
    if (next !== this.#mode) {
      const { instanceId } = this.#core;
      if (next === "fullscreen") {
        claimFullscreen(instanceId, () => this.setDisplayMode("inline", "person"));
      } else if (this.#mode === "fullscreen") {
        releaseFullscreen(instanceId);
      }
      this.#mode = next;
      this.#core.patch({ displayMode: next });
      this.#core.view.publish({
        displayMode: next,
        containerDimensions: containerDimensionsFor(next, this.#measured),
      });
    }
    return next;
  }

  /**
   * A view's `ui/request-display-mode`. Modes it did not declare are refused (the answer is the
   * mode in effect). Full screen covers the whole window, so a view gets it only after the
   * person said yes to a question the host shows; after a no, later requests are refused
   * without asking again. Other declared modes (inline, picture in picture) are switched to.
   *
   * @returns the mode in effect afterwards.
   */
  async requestFromView(requested: unknown): Promise<DisplayMode> {
    if (this.#core.disposed) return this.#mode;
    const next = decideDisplayMode({
      requested,
      current: this.#mode,
      declared: this.#core.view.declaredModes(),
      requestedBy: "view",
    });
    if (next !== "fullscreen" || this.#mode === "fullscreen") {
      return this.setDisplayMode(next, "view");
    }
    if (this.#fullscreenRefused) {
      this.#core.hostLog(
        "info",
        "The app asked for full screen again; you said no, so it stays here.",
      );
      return this.#mode;
    }
    if (this.#question.open) return this.#mode;
    const accepted = await this.#question.ask({ mode: "fullscreen" });
    if (accepted === null || this.#core.disposed) return this.#mode;
    if (!accepted) {
      this.#fullscreenRefused = true;
      this.#core.hostLog("info", "You kept the app in the conversation instead of full screen.");
      return this.#mode;
    }
    return this.setDisplayMode("fullscreen", "view");
  }

  /**
   * The view initialised and was sent its input: a mode the person chose before it declared its
   * modes may not be one of them; then it hears what changed since its `ui/initialize`.
   */
  viewInitialized(declared: readonly DisplayMode[] | undefined): void {
    if (!allowedDisplayModes(declared, "person").includes(this.#mode)) {
      this.setDisplayMode("inline", "person");
    }
    this.#core.view.flush();
  }

  /** The view reported its height (`ui/notifications/size-changed`). */
  sizeChanged(height: unknown): void {
    // Fullscreen and picture-in-picture have a fixed size: the host owns it.
    if (this.#mode !== "inline" || this.#core.disposed) return;
    const next = nextFrameHeight({ current: this.#frameHeight, reported: height });
    if (next === null) return;
    this.#frameHeight = next;
    this.#core.patch({ frameHeight: next });
  }

  /** The card's container was measured again. */
  resized(size: BoxSize): void {
    this.#measured = size;
    this.#core.view.publish({ containerDimensions: containerDimensionsFor(this.#mode, size) });
  }

  /** The card is torn down: its question goes, and it gives full screen back. */
  withdraw(): void {
    this.#question.withdraw();
    releaseFullscreen(this.#core.instanceId);
  }
}
