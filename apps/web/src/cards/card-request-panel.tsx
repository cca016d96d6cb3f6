/** Props of {@link CardRequestPanel}. */
export interface CardRequestPanelProps {
  tool: string;
  arguments: Record<string, unknown>;
  result: Record<string, unknown> | null;
  cancelled: string | null;
}

function pretty(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The call that opened a card: its tool, arguments and result (or why it has none), as JSON.
 * Rendered as text, never as HTML.
 *
 * @returns the panel.
 */
export function CardRequestPanel(props: CardRequestPanelProps) {
  return (
    <div className="mch-card__panel" data-testid="card-request" aria-label="Request">
      <div className="mch-card__panel-label">Arguments of {props.tool}</div>
      <pre className="mch-card__json">{pretty(props.arguments)}</pre>
      <div className="mch-card__panel-label">Result</div>
      {props.result !== null ? (
        <pre className="mch-card__json">{pretty(props.result)}</pre>
      ) : (
        <p className="mch-card__muted">
          {props.cancelled !== null
            ? `No result: ${props.cancelled}`
            : "The call is still running."}
        </p>
      )}
    </div>
  );
}
