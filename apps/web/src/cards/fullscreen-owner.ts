// At most one card of the page is in full screen: a second one would cover the first one's
// host-drawn bar, and with it the way out.

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
