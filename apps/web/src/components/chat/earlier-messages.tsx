import { type RefObject, useEffect, useRef } from "react";
import { useShallow } from "zustand/react/shallow";
import { loadEarlierMessages } from "../../socket/earlier-messages";
import { useSocket } from "../../socket/socket-context";
import { useHostStore } from "../../state/host-store";

/** How far above the list's top (px) the earlier messages start loading, before they are reached. */
const loadAheadPixels = 600;

/**
 * The line at the top of a message list whose conversation has earlier messages than those
 * loaded: scrolled near, it loads the page before them (`conversation:messages`), saying
 * "Loading earlier messages…" meanwhile; a failure says why, with a button to try again. It
 * keeps one height whatever it says, so what it says never moves the messages below it.
 *
 * @param props.root - the list's scrolling element.
 */
export function EarlierMessages(props: { root: RefObject<HTMLElement | null> }) {
  const { root } = props;
  const socket = useSocket();
  const { loading, error } = useHostStore(useShallow((state) => state.earlierMessages));
  const line = useRef<HTMLDivElement>(null);

  // Near the top: load a page. The observer is made again once each page is in, so that its
  // first report (where the line is after the page went above it) decides about the next one;
  // after a failure only the button tries again.
  useEffect(() => {
    const element = line.current;
    // jsdom has no IntersectionObserver: the line then loads nothing by itself.
    if (element === null || loading || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        const near = entries.some((entry) => entry.isIntersecting);
        if (near && useHostStore.getState().earlierMessages.error === null) {
          void loadEarlierMessages(socket);
        }
      },
      { root: root.current, rootMargin: `${loadAheadPixels}px 0px 0px 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [root, loading, socket]);

  return (
    <div ref={line} className="earlier-messages" data-testid="earlier-messages">
      {error !== null ? (
        <p className="earlier-messages-error" role="alert" data-testid="earlier-messages-error">
          {error}{" "}
          <button
            type="button"
            className="button button-small"
            data-testid="earlier-messages-retry"
            onClick={() => void loadEarlierMessages(socket)}
          >
            Try again
          </button>
        </p>
      ) : loading ? (
        <p className="earlier-messages-loading" role="status">
          Loading earlier messages…
        </p>
      ) : null}
    </div>
  );
}
