// At most one card of the page is in full screen: a second one would cover the first one's
// host-drawn bar, and with it the way out. When the host asks the person a question, the card in
// full screen leaves it (see `leaveFullscreen`).

let owner: { instanceId: string; leave: () => void } | null = null;

/**
 * A card enters full screen: any other card in full screen leaves it first.
 *
 * @param instanceId - the card.
 * @param leave - brings this card back inline, when another card takes full screen.
 */
export function claimFullscreen(instanceId: string, leave: () => void): void {
  const previous = owner;
  owner = { instanceId, leave };
  if (previous !== null && previous.instanceId !== instanceId) previous.leave();
}

/** A card left full screen (or went away). */
export function releaseFullscreen(instanceId: string): void {
  if (owner?.instanceId === instanceId) owner = null;
}

/**
 * Brings the card in full screen, if any, back inline, and takes the page out of the browser's
 * full screen if something is in it: a question of the host appears, and a view that filled the
 * window must not frame it (it drew "Press Tab, then Enter" around where the dialog opens). The
 * person can go back to full screen with the card's own button.
 */
export function leaveFullscreen(): void {
  const previous = owner;
  owner = null;
  previous?.leave();
  // An element in the browser's full screen sits in the top layer above dialogs opened before it.
  if (typeof document !== "undefined" && document.fullscreenElement) {
    document.exitFullscreen().catch((error: unknown) => {
      console.warn("The page could not leave the browser's full screen.", error);
    });
  }
}
