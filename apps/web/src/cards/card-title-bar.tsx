import { PictureInPictureIcon } from "../ui/icons";
import { permissionLabels } from "../consent/permission-names";
import type { CardPermissions } from "../state/types/card-view-state";
import type { DisplayMode } from "./display-mode";
import { resultCutText, type ResultCut } from "./result-cut";

/** Props of {@link CardTitleBar}. */
export interface CardTitleBarProps {
  title: string;
  source: string;
  tool: string;
  /** The name the model was given for the tool, when it differs from `tool`. */
  toolModelName?: string | null;
  reportedAt: number | null;
  displayMode: DisplayMode;
  /** Modes the person may switch to now. */
  allowedModes: readonly DisplayMode[];
  requestShown: boolean;
  logShown: boolean;
  /** The view's declared permissions and the granted ones. */
  permissions?: CardPermissions | undefined;
  permissionsShown?: boolean;
  onTogglePermissions?: () => void;
  /** Set when the host cut the card's tool result (it was too large). */
  resultCut?: ResultCut | null;
  logCount: number;
  /** False while the card closes: the controls do nothing then. */
  enabled: boolean;
  onToggleRequest: () => void;
  onToggleLog: () => void;
  onDisplayMode: (mode: DisplayMode) => void;
  onClose: () => void;
}

function initialOf(source: string, title: string): string {
  const letter = (source.trim() || title.trim()).charAt(0);
  return letter === "" ? "?" : letter.toUpperCase();
}

/**
 * A card's title bar: an initial for its source, its title, source and tool (the tool's own name;
 * the model's name for it as a hint when different), when it last reported its model context,
 * and its controls (request, log, picture-in-picture, full screen, close).
 * Mode buttons toggle: pressing the active mode's button brings the card back inline.
 *
 * @returns the `<header>` element.
 */
export function CardTitleBar(props: CardTitleBarProps) {
  const fullscreen = props.displayMode === "fullscreen";
  const pip = props.displayMode === "pip";
  return (
    <header className="mch-card__titlebar">
      <span className="mch-card__icon" aria-hidden="true">
        {initialOf(props.source, props.title)}
      </span>
      <div className="mch-card__heading">
        <span className="mch-card__title" data-testid="card-title" role="heading" aria-level={3}>
          {props.title}
        </span>
        <span
          className="mch-card__source"
          data-testid="card-source"
          title={
            props.toolModelName != null
              ? `The model calls this tool ${props.toolModelName}`
              : undefined
          }
        >
          {props.source}
          {props.tool !== "" ? ` · ${props.tool}` : ""}
          {props.toolModelName != null ? (
            <span className="visually-hidden">, which the model calls {props.toolModelName}</span>
          ) : null}
        </span>
      </div>
      {props.resultCut != null ? (
        <span
          className="mch-card__cut"
          data-testid="card-result-cut"
          title={`The tool's result had ${props.resultCut.originalChars.toLocaleString("en-US")} characters; the host keeps, shows and gives the model at most ${props.resultCut.limit.toLocaleString("en-US")}.`}
        >
          {resultCutText(props.resultCut)}
        </span>
      ) : null}
      {props.reportedAt !== null ? (
        <span
          className="mch-card__reported"
          data-testid="card-reported-at"
          title={`The app last told the model what it shows at ${new Date(props.reportedAt).toLocaleString()}`}
        >
          reported {new Date(props.reportedAt).toLocaleTimeString()}
        </span>
      ) : null}
      <div className="mch-card__controls" role="toolbar" aria-label={`Controls of ${props.title}`}>
        {props.permissions !== undefined && props.permissions.declared.length > 0 ? (
          <PermissionsButton
            permissions={props.permissions}
            shown={props.permissionsShown === true}
            enabled={props.enabled}
            onToggle={props.onTogglePermissions ?? (() => undefined)}
          />
        ) : null}
        <button
          type="button"
          className="mch-card__button"
          data-testid="card-show-request"
          aria-pressed={props.requestShown}
          disabled={!props.enabled}
          onClick={props.onToggleRequest}
          title="Show the call that opened this app"
        >
          Request
        </button>
        <button
          type="button"
          className="mch-card__button"
          data-testid="card-log-button"
          aria-pressed={props.logShown}
          disabled={!props.enabled}
          onClick={props.onToggleLog}
          title="Show this app's log"
        >
          Log{props.logCount > 0 ? ` (${props.logCount})` : ""}
        </button>
        <button
          type="button"
          className="mch-card__button mch-card__button--icon"
          data-testid="card-pip"
          aria-pressed={pip}
          aria-label={pip ? "Back into the conversation" : "Picture in picture"}
          title={pip ? "Back into the conversation" : "Picture in picture"}
          disabled={!props.enabled || (!pip && !props.allowedModes.includes("pip"))}
          onClick={() => props.onDisplayMode(pip ? "inline" : "pip")}
        >
          <PictureInPictureIcon />
        </button>
        <button
          type="button"
          className="mch-card__button mch-card__button--icon"
          data-testid="card-fullscreen"
          aria-pressed={fullscreen}
          aria-label={fullscreen ? "Leave full screen" : "Full screen"}
          title={fullscreen ? "Leave full screen (Escape)" : "Full screen"}
          disabled={!props.enabled || (!fullscreen && !props.allowedModes.includes("fullscreen"))}
          onClick={() => props.onDisplayMode(fullscreen ? "inline" : "fullscreen")}
        >
          <span aria-hidden="true">{fullscreen ? "⤡" : "⤢"}</span>
        </button>
        <button
          type="button"
          className="mch-card__button mch-card__button--icon"
          data-testid="card-close"
          aria-label={`Close ${props.title}`}
          title="Close"
          disabled={!props.enabled}
          onClick={props.onClose}
        >
          <span aria-hidden="true">✕</span>
        </button>
      </div>
    </header>
  );
}

/**
 * The card's permission indicator: what its view may use now ("Camera, Microphone"), or
 * "No permissions" when the person allowed none of what it declared; it opens the card's
 * permission panel.
 */
function PermissionsButton(props: {
  permissions: CardPermissions;
  shown: boolean;
  enabled: boolean;
  onToggle: () => void;
}) {
  const { granted } = props.permissions;
  const label =
    granted.length === 0
      ? "No permissions"
      : granted.map((name) => permissionLabels[name]).join(", ");
  return (
    <button
      type="button"
      className={`mch-card__button mch-card__permissions${granted.length > 0 ? " mch-card__permissions--granted" : ""}`}
      data-testid="card-permissions"
      data-granted={granted.join(" ")}
      aria-pressed={props.shown}
      disabled={!props.enabled}
      onClick={props.onToggle}
      title={
        granted.length === 0
          ? "This app may not use what it asked for; change it here"
          : `This app may use: ${label}. Withdraw it here`
      }
    >
      {granted.length > 0 ? <span aria-hidden="true">● </span> : null}
      {label}
    </button>
  );
}
