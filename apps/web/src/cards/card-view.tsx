import type { CardDescriptor } from "@mcp-chat-host/protocol";
import { useEffect, useEffectEvent, useRef, useState } from "react";
import type { ConsentArmingOptions } from "../consent/consent-arming";
import { CardController } from "./card-controller";
import { CardLogPanel } from "./card-log-panel";
import type { CardResume } from "./card-controller-options";
import type { TeardownReason } from "../state/page-cards";
import { CardRequestPanel } from "./card-request-panel";
import type { HostSocket } from "../socket/host-socket";
import { useHostStore } from "../state/host-store";
import type { CardCallbacks } from "./card-controller-options";
import type { CardLogEntry } from "../state/types/card-view-state";
import { CardPermissionsPanel } from "./card-permissions-panel";
import { CardTitleBar } from "./card-title-bar";
import { allowedDisplayModes, type DisplayMode } from "./display-mode";
import { DisplayModePrompt } from "./display-mode-prompt";
import { DownloadConfirm } from "./download-confirm";
import { FullscreenBar } from "./fullscreen-bar";
import { PermissionPrompt } from "./permission-prompt";
import { resultCutOf } from "./result-cut";
import { resultText } from "./result-text";
import { outerFrameReferrerPolicy, outerFrameSandbox } from "./frame-attributes";
import { initialFrameHeight } from "../state/types/card-view-state";
import type { LiveViewControl } from "./live-view-budget";
import type { Theme } from "../state/theme-store";
import "./card.css";

/** Props of {@link CardView}. */
export interface CardViewProps {
  /**
   * The card's descriptor, as its `cards` entry holds it; what happened to the card since (its
   * arguments, result, cancellation) is read from that entry.
   */
  card: CardDescriptor;
  /** The chat the card shows in, or null (a pane). */
  chatId: string | null;
  socket: HostSocket;
  theme: Theme;
  /** The card was closed and torn down: remove it from the page. */
  onClose: (instanceId: string) => void;
  /** A line was added to the card's log. */
  onLog?: (instanceId: string, entry: CardLogEntry) => void;
  /** The view reported its model context; `text` is the report's text. */
  onReport?: ((instanceId: string, text: string) => void) | undefined;
  /** Set when the card was paused and attaches again. */
  resume?: CardResume | undefined;
  /** Hands the card's controller to the live view budget; returns how to take it back. */
  bindLiveView?: ((control: LiveViewControl) => () => void) | undefined;
  /** Sent with `card:teardown` when the component unmounts without its close button. */
  unmountReason?: TeardownReason;
  /** The name the model was given for the card's tool, when it differs from the tool's own. */
  toolModelName?: string | null;
  /** The arming clock and delay of the card's consent questions (tests). */
  consentArming?: ConsentArmingOptions;
}

const modeLabels: Record<DisplayMode, string> = {
  inline: "",
  fullscreen: "This app is shown in full screen.",
  pip: "This app is shown in picture in picture.",
};

/**
 * A live app card: title bar and controls, the view in its sandbox (the proxy iframe), the
 * fallback text when the view cannot load, and its request, log and download panels.
 *
 * The iframe and its container are the same elements for the card's whole life: display modes
 * only change CSS classes (moving an iframe in the DOM reloads it, and the view would lose its
 * state). Ancestors must not set `transform`, `filter` or `contain`, which would trap the
 * fixed-position full-screen and picture-in-picture boxes.
 *
 * @returns the card's `<section>`.
 */
export function CardView(props: CardViewProps) {
  const { card } = props;
  const iframeRef = useRef<HTMLIFrameElement>(null);
  const holderRef = useRef<HTMLDivElement>(null);
  const controllerRef = useRef<CardController | null>(null);
  const [requestShown, setRequestShown] = useState(false);
  const [logShown, setLogShown] = useState(false);
  const [permissionsShown, setPermissionsShown] = useState(false);
  const state = useHostStore((store) => store.cardViews[card.instanceId]);
  const entry = useHostStore((store) => store.cards[card.instanceId]);

  // What the effect below reads of the latest props without re-running for them: the card is
  // attached once per instance id, and later descriptor changes come over the socket.
  const controllerSetup = useEffectEvent(() => ({
    card,
    socket: props.socket,
    theme: props.theme,
    resume: props.resume,
  }));
  const latestCallbacks = useEffectEvent((): CardCallbacks => ({
    onClose: props.onClose,
    onLog: props.onLog,
    onReport: props.onReport,
  }));
  const bindLiveView = useEffectEvent((controller: CardController) =>
    props.bindLiveView?.(controller),
  );
  const unmountReason = useEffectEvent(() => props.unmountReason ?? "unmounted");

  useEffect(() => {
    const iframe = iframeRef.current;
    const holder = holderRef.current;
    if (iframe === null || holder === null) return;
    let controller = controllerRef.current;
    // StrictMode runs this effect, its cleanup and the effect again: keep the same controller.
    const reused =
      controller !== null && controller.instanceId === card.instanceId && controller.retain();
    if (!reused || controller === null) {
      controller = new CardController({
        ...controllerSetup(),
        iframe,
        holder,
        callbacks: () => latestCallbacks(),
      });
      controllerRef.current = controller;
      controller.start();
    }
    const current = controller;
    const unbind = bindLiveView(current);
    return () => {
      unbind?.();
      current.releaseSoon(unmountReason());
    };
  }, [card.instanceId]);

  useEffect(() => {
    controllerRef.current?.setTheme(props.theme);
  }, [props.theme]);

  const displayMode = state?.displayMode ?? "inline";
  // Escape reaches the host only while the host page has the focus: a key pressed inside the
  // view's frame (another origin) goes to the view, and no host can catch it. The host-drawn bar
  // above the frame has the way out that always works: its Exit button.
  useEffect(() => {
    if (displayMode !== "fullscreen") return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !event.defaultPrevented) {
        controllerRef.current?.setDisplayMode("inline");
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [displayMode]);

  const status = state?.status ?? "attaching";
  const { title, source, tool } = card;
  const result = entry?.result ?? null;
  const unavailable = status === "error" || status === "closed";
  const enabled = status !== "closing" && status !== "closed";
  const declared = state?.declaredModes ?? undefined;
  const fallback = resultText(result);
  const permissions = state?.permissions;
  const classes = [
    "mch-card",
    `mch-card--${displayMode}`,
    state?.prefersBorder === false ? "mch-card--borderless" : "",
  ]
    .filter((name) => name !== "")
    .join(" ");

  return (
    <section
      className={classes}
      data-testid="card"
      data-instance-id={card.instanceId}
      data-status={status}
      data-card-state={state?.delivered === true && status === "ready" ? "live" : undefined}
      data-display-mode={displayMode}
      aria-label={`App: ${title}`}
    >
      {displayMode !== "inline" ? (
        <p className="mch-card__placeholder">
          {modeLabels[displayMode]}{" "}
          <button
            type="button"
            className="mch-card__link-button"
            onClick={() => controllerRef.current?.setDisplayMode("inline")}
          >
            Bring it back here
          </button>
        </p>
      ) : null}
      <div className="mch-card__body">
        {displayMode === "fullscreen" ? (
          <FullscreenBar
            title={title}
            source={source}
            onExit={() => controllerRef.current?.setDisplayMode("inline")}
          />
        ) : null}
        <CardTitleBar
          title={title}
          source={source}
          tool={tool}
          toolModelName={props.toolModelName ?? null}
          reportedAt={state?.reportedAt ?? null}
          displayMode={displayMode}
          allowedModes={allowedDisplayModes(declared, "person")}
          requestShown={requestShown}
          logShown={logShown}
          permissions={permissions}
          permissionsShown={permissionsShown}
          onTogglePermissions={() => setPermissionsShown((shown) => !shown)}
          resultCut={resultCutOf(result)}
          logCount={state?.log.length ?? 0}
          enabled={enabled}
          onToggleRequest={() => setRequestShown((shown) => !shown)}
          onToggleLog={() => setLogShown((shown) => !shown)}
          onDisplayMode={(mode) => controllerRef.current?.setDisplayMode(mode)}
          onClose={() => void controllerRef.current?.close()}
        />
        {requestShown ? (
          <CardRequestPanel
            tool={tool}
            arguments={entry?.arguments ?? {}}
            result={result}
            cancelled={entry?.cancelled ?? null}
          />
        ) : null}
        {permissionsShown && permissions !== undefined && permissions.declared.length > 0 ? (
          <CardPermissionsPanel
            source={source}
            permissions={permissions}
            onChange={(name, granted) => controllerRef.current?.answerPermission(name, granted)}
          />
        ) : null}
        {unavailable ? (
          <div className="mch-card__fallback" data-testid="card-error" role="status">
            <p className="mch-card__fallback-reason">
              {status === "error"
                ? `The app could not be shown: ${state?.error ?? "unknown reason"}`
                : (state?.error ?? "This app was closed.")}
            </p>
            {fallback !== "" ? <p className="mch-card__fallback-text">{fallback}</p> : null}
          </div>
        ) : null}
        <div
          ref={holderRef}
          className="mch-card__holder"
          hidden={unavailable}
          aria-busy={status === "waiting" || status === "attaching" || status === "loading"}
        >
          {status === "waiting" ? (
            <p className="mch-card__waiting" data-testid="card-waiting">
              Waiting to open…
            </p>
          ) : null}
          {state?.permissionRequest != null ? (
            <p className="mch-card__waiting" data-testid="card-asking">
              Waiting for your answer about what this app may use…
            </p>
          ) : null}
          <iframe
            ref={iframeRef}
            className="mch-card__frame"
            data-testid="card-iframe"
            title={`${title} (app from ${source})`}
            sandbox={outerFrameSandbox}
            referrerPolicy={outerFrameReferrerPolicy}
            style={
              displayMode === "inline"
                ? { height: `${state?.frameHeight ?? initialFrameHeight}px` }
                : undefined
            }
          />
        </div>
        {logShown ? <CardLogPanel entries={state?.log ?? []} /> : null}
      </div>
      {state?.download != null ? (
        <DownloadConfirm title={title} download={state.download} arming={props.consentArming} />
      ) : null}
      {state?.permissionRequest != null ? (
        <PermissionPrompt
          title={title}
          source={source}
          request={state.permissionRequest}
          arming={props.consentArming}
        />
      ) : null}
      {state?.displayRequest != null ? (
        <DisplayModePrompt
          title={title}
          source={source}
          request={state.displayRequest}
          arming={props.consentArming}
        />
      ) : null}
    </section>
  );
}
