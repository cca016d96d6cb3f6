/** Props of {@link FullscreenBar}. */
export interface FullscreenBarProps {
  title: string;
  source: string;
  onExit: () => void;
}

/**
 * The host's bar at the top of a card in full screen, outside the view's frame: the app's name
 * and source, and the Exit button. The view cannot draw over it, move it or hide it, so the person
 * always sees which app fills the window and always has a way out (Escape works only while the
 * host page has the focus; a key pressed inside the view goes to the view).
 *
 * @returns the bar.
 */
export function FullscreenBar(props: FullscreenBarProps) {
  return (
    <div className="mch-card__host-bar" data-testid="card-fullscreen-bar" role="group">
      <span className="mch-card__host-bar-text">
        <strong>{props.title}</strong> from {props.source} fills the window. This bar is the chat
        host&apos;s, not the app&apos;s.
      </span>
      <button
        type="button"
        className="mch-card__button mch-card__host-bar-exit"
        data-testid="card-exit-fullscreen"
        onClick={props.onExit}
      >
        Exit full screen
      </button>
    </div>
  );
}
