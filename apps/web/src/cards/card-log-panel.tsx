import type { CardLogEntry } from "../state/types/card-view-state";

/** Props of {@link CardLogPanel}. */
export interface CardLogPanelProps {
  entries: readonly CardLogEntry[];
}

function describe(data: unknown): string {
  if (typeof data === "string") return data;
  try {
    return JSON.stringify(data) ?? String(data);
  } catch {
    return String(data);
  }
}

/**
 * A card's log: the view's own log lines and the host's notes (refused links, declined
 * downloads), oldest first. Text only.
 *
 * @returns the panel.
 */
export function CardLogPanel(props: CardLogPanelProps) {
  return (
    <div className="mch-card__panel" data-testid="card-log" role="log" aria-label="App log">
      {props.entries.length === 0 ? (
        <p className="mch-card__muted">Nothing logged yet.</p>
      ) : (
        <ol className="mch-card__log">
          {props.entries.map((entry, index) => (
            <li key={index} className={`mch-card__log-line mch-card__log-line--${entry.level}`}>
              <time dateTime={new Date(entry.at).toISOString()}>
                {new Date(entry.at).toLocaleTimeString()}
              </time>{" "}
              <span className="mch-card__log-level">{entry.level}</span>{" "}
              <span className="mch-card__log-origin">
                {entry.origin === "host" ? "host" : (entry.logger ?? "app")}
              </span>{" "}
              <span className="mch-card__log-text">{describe(entry.data)}</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
