import type { ConsentButtons } from "../../consent/use-consent-arming";

/** Props of {@link ElicitationUrl}. */
export interface ElicitationUrlProps {
  server: string;
  url: string;
  busy: boolean;
  consent: ConsentButtons;
  onAnswer: (action: "accept" | "decline") => void;
}

/** Why an address is not offered to the person, or null when it may be. */
function refusalOf(url: string): string | null {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (parsed === null || (parsed.protocol !== "https:" && parsed.protocol !== "http:")) {
    return "This is not a web address (http or https), so it cannot be opened; decline it.";
  }
  // A page of this host opened on a server's word could sign the person in as someone else.
  if (parsed.origin === window.location.origin) {
    return "This address is on this chat host itself, so it is not opened from here; decline it.";
  }
  return null;
}

/**
 * A server's request to open a page: the address in full and its host, so the person sees where
 * it goes (an address that is not http or https, or one on this host itself, is never opened),
 * then Decline and Open (opens it in a new tab with no link back to this page, and says so to
 * the server); Decline comes first in the tab order. Nothing opens unless the person presses
 * Open.
 */
export function ElicitationUrl(props: ElicitationUrlProps) {
  const { server, url, busy, consent, onAnswer } = props;
  const refusal = refusalOf(url);
  const host = refusal === null ? new URL(url).host : null;
  const open = (button: HTMLElement) => {
    if (refusal !== null || !consent.activate(button)) return;
    window.open(url, "_blank", "noopener,noreferrer");
    onAnswer("accept");
  };
  return (
    <>
      <p>{server} asks you to open this page:</p>
      <p className="elicitation-url" data-testid="elicitation-url">
        {url}
      </p>
      {refusal !== null ? (
        <p className="inline-error" role="alert" data-testid="elicitation-url-refused">
          {refusal}
        </p>
      ) : (
        <p>
          It is on <strong data-testid="elicitation-url-host">{host}</strong>. Open it only if you
          trust that site.
        </p>
      )}
      <div className="elicitation-buttons">
        <button
          type="button"
          className="button"
          data-testid="elicitation-decline"
          disabled={busy}
          onClick={() => onAnswer("decline")}
        >
          Decline
        </button>
        <button
          type="button"
          className="button button-primary"
          data-testid="elicitation-open"
          disabled={busy || refusal !== null}
          aria-disabled={consent.armed ? undefined : true}
          onClick={(event) => open(event.currentTarget)}
        >
          Open
        </button>
      </div>
    </>
  );
}
