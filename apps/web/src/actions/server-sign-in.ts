// The "Connect <server>" flow. The popup is opened synchronously in the click's handler (the
// browser allows a popup only with the person's activation), on about:blank, and cut from this tab
// (`opener = null`, allowed while it is still same-origin) before the authorization server's page
// loads in it: that page can never reach this tab (reverse tabnabbing). The tab learns of the
// result from `servers:state`, never by polling the popup.
import type { HostSocket } from "../socket/host-socket";
import { request } from "../socket/request";
import { useHostStore } from "../state/host-store";
import { closeSignInWindow } from "../state/servers-heard";
import type { ServerSignIn } from "../state/types/servers";
import { checkSignInAddress } from "./sign-in-address";

const store = useHostStore.getState;

/** The popup's size: room for an authorization server's login and consent pages. */
const popupFeatures = "popup,width=520,height=720";

/** Opens the popup the authorization server's page will load in, cut from this tab. */
function openBlankPopup(name: string): Window | null {
  const popup = window.open("about:blank", `mcp-sign-in-${name}`, popupFeatures);
  if (popup === null) return null;
  popup.opener = null;
  return popup;
}

/**
 * Starts signing in to a server. Call it from the click's handler itself: the popup opens before
 * anything is awaited. The authorization server's page opens in the popup once the server named it
 * and it passed {@link checkSignInAddress}; when the browser blocked the popup, the server's row
 * offers a link instead. A refusal closes the popup and becomes the server's message.
 *
 * @param socket - the page's socket.
 * @param name - the server's name.
 * @param pageOrigin - this page's origin (injected by tests).
 * @returns when the server answered; never rejects.
 */
export async function startServerSignIn(
  socket: HostSocket,
  name: string,
  pageOrigin: string = window.location.origin,
): Promise<void> {
  closeSignInWindow(store().serverSignIns[name]);
  const signIn: ServerSignIn = { step: "asking", popup: openBlankPopup(name) };
  store().setServerMessage(name, null);
  store().setServerSignIn(name, signIn);
  const ack = await request(socket, "server:connect", { name });
  // Cancelled, or another sign-in for the same server replaced this one, while the server answered.
  if (store().serverSignIns[name] !== signIn) return;
  const fail = (message: string) => {
    closeSignInWindow(signIn);
    store().setServerSignIn(name, null);
    store().setServerMessage(name, { kind: "error", text: message });
  };
  if (!ack.ok) return fail(ack.error.message);
  if (!("authorizationUrl" in ack.value)) {
    // Connected without a sign-in; `servers:state` brings the new state.
    closeSignInWindow(signIn);
    store().setServerSignIn(name, null);
    return;
  }
  const checked = checkSignInAddress(ack.value.authorizationUrl, name, pageOrigin);
  if (!checked.ok) return fail(checked.message);
  if (signIn.popup === null || signIn.popup.closed) {
    store().setServerSignIn(name, { step: "link", url: checked.url });
    return;
  }
  signIn.popup.location.replace(checked.url);
  store().setServerSignIn(name, { step: "waiting", popup: signIn.popup });
}

/** The person opened the sign-in page with the link (the popup was blocked). */
export function signInLinkOpened(name: string): void {
  if (store().serverSignIns[name]?.step === "link") {
    store().setServerSignIn(name, { step: "waiting", popup: null });
  }
}

/** Cancels a server's sign-in: closes its popup; the server's state stays as the server says. */
export function cancelServerSignIn(name: string): void {
  closeSignInWindow(store().serverSignIns[name]);
  store().setServerSignIn(name, null);
}
