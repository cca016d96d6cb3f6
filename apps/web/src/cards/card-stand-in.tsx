import type { LiveViewMemory, LiveViewState } from "./live-view-budget";
import { initialFrameHeight } from "../state/types/card-view-state";
import "./card-stand-in.css";

/** Props of {@link CardStandIn}. */
export interface CardStandInProps {
  instanceId: string;
  title: string;
  source: string;
  tool: string;
  /** The card's state in the live view budget (`standby`, `waiting` or `paused`). */
  state: LiveViewState;
  /** What the page remembers of the card, if it was live before. */
  memory: LiveViewMemory | undefined;
  /** The text of the opening call's result, shown when the view never reported. */
  resultText: string;
}

/** The title bar's and borders' height around a frame, for a card never measured. */
const chromeHeight = 44;

function timeOf(at: number): string {
  return new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/**
 * What shows in place of a card whose view is not live: its title, source and tool, its last
 * report (else its result), and, once it was paused, when and why. It keeps the height the card
 * had, so the conversation does not jump when cards pause and resume.
 *
 * @returns the stand-in's `<section>`.
 */
export function CardStandIn(props: CardStandInProps) {
  const { memory } = props;
  const paused = memory?.pausedAt != null;
  const height = memory?.height ?? null;
  const note = paused
    ? `Paused at ${timeOf(memory?.pausedAt ?? 0)} to save memory while out of view. It opens again from its saved result when you scroll back to it.`
    : props.state === "waiting"
      ? "Opening when a place is free…"
      : "Opens when you scroll to it.";
  const report = memory?.reportText ?? null;
  return (
    <section
      className="mch-card mch-card-stand-in"
      data-testid="card-stand-in"
      data-instance-id={props.instanceId}
      data-state={props.state}
      aria-label={`App: ${props.title} (${paused ? "paused" : "not open yet"})`}
      style={
        height !== null
          ? { height: `${height}px` }
          : { minHeight: `${initialFrameHeight + chromeHeight}px` }
      }
    >
      <div className="mch-card__body mch-card-stand-in__body">
        <header className="mch-card__titlebar">
          <span className="mch-card__icon" aria-hidden="true">
            {(props.source || props.title).charAt(0).toUpperCase()}
          </span>
          <div className="mch-card__heading">
            <span className="mch-card__title" role="heading" aria-level={3}>
              {props.title}
            </span>
            <span className="mch-card__source" data-testid="card-stand-in-source">
              {props.source}
              {props.tool !== "" ? ` · ${props.tool}` : ""}
            </span>
          </div>
        </header>
        <p className="mch-card-stand-in__note" data-testid="card-paused-note" role="status">
          {note}
        </p>
        {report !== null ? (
          <p className="mch-card-stand-in__text" data-testid="card-stand-in-report">
            <span className="mch-card-stand-in__label">Last report: </span>
            {report}
          </p>
        ) : props.resultText !== "" ? (
          <p className="mch-card-stand-in__text" data-testid="card-stand-in-result">
            <span className="mch-card-stand-in__label">Result: </span>
            {props.resultText}
          </p>
        ) : null}
      </div>
    </section>
  );
}
