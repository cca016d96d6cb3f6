// App cards as the end-to-end specs reach them. A view lives two frames deep: the card's iframe
// is the sandbox proxy (on the source's own origin) and the view is the proxy's only child, a
// srcdoc iframe. Locators reach into it for clicks and text; the Frame objects let a spec run
// script inside the proxy or the view, as an attacker's page would.
import { expect, type Frame, type FrameLocator, type Locator, type Page } from "@playwright/test";
import { replies, sendMessage } from "./chat-page";

/** Every card on the page, oldest first. */
export function cards(page: Page): Locator {
  return page.getByTestId("card");
}

/**
 * The view of a card, for locators (`view.getByTestId("notes-text")`).
 *
 * @param card - the card's `section`.
 * @returns the frame locator of the view (the proxy's inner frame).
 */
export function viewOf(card: Locator): FrameLocator {
  return card.getByTestId("card-iframe").contentFrame().locator("iframe").contentFrame();
}

/**
 * The sandbox proxy's frame of a card (the card's iframe), once the proxy has loaded.
 *
 * @param card - the card's `section`.
 * @returns the proxy's Frame.
 * @throws when the iframe has no document within the expect timeout.
 */
export async function proxyFrame(card: Locator): Promise<Frame> {
  const element = await card.getByTestId("card-iframe").elementHandle();
  if (element === null) throw new Error("The card has no iframe.");
  let frame: Frame | null = null;
  await expect
    .poll(async () => {
      frame = await element.contentFrame();
      return frame?.url() ?? "";
    })
    .toContain("/proxy");
  if (frame === null) throw new Error("The card's iframe has no frame.");
  return frame;
}

/**
 * The view's frame of a card (the proxy's only child), once the proxy has created it.
 *
 * @param card - the card's `section`.
 * @returns the view's Frame, to `evaluate` script in as the view would run it.
 */
export async function viewFrame(card: Locator): Promise<Frame> {
  const proxy = await proxyFrame(card);
  await expect.poll(() => proxy.childFrames().length).toBe(1);
  const [view] = proxy.childFrames();
  if (view === undefined) throw new Error("The proxy has no inner frame.");
  return view;
}

/**
 * Sends a message that opens a card and waits until the card's view initialised (`data-status`
 * "ready") and the reply is complete.
 *
 * @param page - the chat page.
 * @param text - the message, such as `/call open-notes {"text":"..."}`.
 * @returns the new card (the last one on the page) and the reply.
 */
export async function openCard(
  page: Page,
  text: string,
): Promise<{ card: Locator; reply: Locator }> {
  const before = await cards(page).count();
  const repliesBefore = await replies(page).count();
  const reply = await sendMessage(page, text);
  await expect(cards(page)).toHaveCount(before + 1);
  const card = cards(page).nth(before);
  await expect(card).toHaveAttribute("data-status", "ready");
  await expect(replies(page)).toHaveCount(repliesBefore + 1);
  return { card, reply };
}
