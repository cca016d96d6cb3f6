import { useState } from "react";
import { useHostStore } from "../../state/host-store";
import { serversNeedingSignIn } from "../../state/servers-slice";
import { ServersPanel } from "./servers-panel";

/** The Servers button's accessible name, with how many servers wait for a sign-in. */
export function serversButtonLabel(waiting: number): string {
  if (waiting === 0) return "Servers";
  return waiting === 1 ? "Servers, 1 needs sign-in" : `Servers, ${waiting} need sign-in`;
}

/**
 * The header's "Servers" button, with a badge counting the servers that need sign-in; it opens
 * the servers panel.
 */
export function ServersButton() {
  const [open, setOpen] = useState(false);
  const waiting = useHostStore((state) => serversNeedingSignIn(state.servers).length);
  return (
    <>
      <button
        type="button"
        className="button button-quiet servers-button"
        data-testid="servers-button"
        aria-label={serversButtonLabel(waiting)}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        Servers
        {waiting > 0 ? (
          <span className="servers-badge" data-testid="servers-badge" aria-hidden="true">
            {waiting}
          </span>
        ) : null}
      </button>
      {open ? <ServersPanel onClose={() => setOpen(false)} /> : null}
    </>
  );
}
