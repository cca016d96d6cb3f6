// The cards running in this page (each has a controller), by instance id. The page uses it to
// tear cards down properly before it removes them for a reason React cannot wait for (switching
// conversations): React removes an unmounted iframe at once, so `ui/resource-teardown` must be
// sent and answered first.

/** Why a card is torn down (the reasons `card:teardown` carries). */
export type TeardownReason = "closed" | "conversation-closed" | "unmounted" | "replaced";

/** What the page knows of a card running in it (its controller). */
export interface PageCard {
  readonly instanceId: string;
  readonly conversationId: string | null;
  /** Tears the card down: `ui/resource-teardown` (bounded wait), `card:teardown`, bridge closed. */
  dispose(reason: TeardownReason): Promise<void>;
  /** Attaches the card again (after a reconnect); the view is sent nothing again. */
  reattach(): Promise<void>;
}

const pageCards = new Map<string, PageCard>();

/**
 * Records a card as live; a newer card with the same instance id replaces an older one.
 *
 * @param card - the card's controller.
 */
export function registerPageCard(card: PageCard): void {
  pageCards.set(card.instanceId, card);
}

/**
 * Forgets a card, if it is still the one recorded under its instance id.
 *
 * @param card - the card's controller.
 */
export function unregisterPageCard(card: PageCard): void {
  if (pageCards.get(card.instanceId) === card) pageCards.delete(card.instanceId);
}

/**
 * Whether this controller is the live one for its instance id (a replaced one stops updating
 * what the page shows).
 */
export function isCurrentPageCard(card: PageCard): boolean {
  return pageCards.get(card.instanceId) === card;
}

/** Whether some controller is live for this instance id. */
export function hasPageCard(instanceId: string): boolean {
  return pageCards.has(instanceId);
}

/**
 * Tears down live cards and waits until each is done (each view gets at most the teardown
 * timeout to answer). Call it before removing cards from the page for a reason other than their
 * close button, e.g. `await teardownCards({ reason: "conversation-closed" })` before opening
 * another conversation.
 *
 * @param options - `reason` sent to the server; `conversationId` to limit it to that
 *   conversation's cards; `instanceIds` to limit it to those cards.
 * @returns when every selected card is torn down; never rejects.
 */
export async function teardownCards(options: {
  reason: TeardownReason;
  conversationId?: string | null;
  instanceIds?: readonly string[];
}): Promise<void> {
  const selected = [...pageCards.values()].filter(
    (card) =>
      (options.conversationId === undefined || card.conversationId === options.conversationId) &&
      (options.instanceIds === undefined || options.instanceIds.includes(card.instanceId)),
  );
  await Promise.all(selected.map((card) => card.dispose(options.reason).catch(() => undefined)));
}

/**
 * Attaches every live card again. Call it after a reconnect, once `session:hello` has answered:
 * a restarted server knows the conversation again only then, and restores each card on attach.
 *
 * @returns when the server answered for every card; never rejects (failures go to each card's log).
 */
export async function reattachCards(): Promise<void> {
  await Promise.all([...pageCards.values()].map((card) => card.reattach().catch(() => undefined)));
}
