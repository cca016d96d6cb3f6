import type { ConsentButtons } from "../../consent/use-consent-arming";

/** Props of {@link ElicitationUrl}. */
export interface ElicitationUrlProps {
  server: string;
  url: string;
  busy: boolean;
  consent: ConsentButtons;
  onAnswer: (action: "accept" | "decline") => void;
}

/**
 * The host of a web address, or null when it is not one the person may be offered (http or
 * https only).
 */
function webAddressHost(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.host : null;
}

/**
 * A server's request to open a page: the address in full and its host, so the person sees where
 * it goes, then Open (opens it in a new tab with no link back to this page, and says so to the
 * server) and Decline. Nothing opens unless the person presses Open.
 */
export function ElicitationUrl(props: ElicitationUrlProps) {
  const { server, url, busy, consent, onAnswer } = props;
  const host = webAddressHost(url);
  const open = () => {
    if (host === null || !consent.activate()) return;
    window.open(url, "_blank", "noopener,noreferrer");
    onAnswer("accept");
  };
  return (
    <>
      <p>{server} asks you to open this page:</p>
      <p className="elicitation-url" data-testid="elicitation-url">
        {url}
      </p>
      {host === null ? (
        <p className="inline-error" role="alert" data-testid="elicitation-url-refused">
          This is not a web address (http or https), so it cannot be opened; decline it.
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
          className="button button-primary"
          data-testid="elicitation-open"
          disabled={busy || host === null}
          aria-disabled={consent.armed ? undefined : true}
          onClick={open}
        >
          Open
        </button>
        <button
          type="button"
          className="button"
          data-testid="elicitation-decline"
          disabled={busy}
          onClick={() => onAnswer("decline")}
        >
          Decline
        </button>
      </div>
    </>
  );
}
