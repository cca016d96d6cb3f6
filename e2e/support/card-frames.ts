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
  await expect(card).toHaveAttribute("data-card-state", "live");
  return { card, reply };
}

/**
 * Waits until what a spec does in a card's view is answered and lands where it is aimed: the
 * host sent the view its input and the opening call's outcome (`data-card-state` "live", set
 * when `ui/notifications/tool-result` or `tool-cancelled` went out), and no card frame of the
 * page is still changing its size or place. A click is aimed at page coordinates: Playwright
 * checks that the button is still inside its own frame, not that the frame stayed where it was,
 * so a click sent while a card frame grows (its height transition) or moves with the list can
 * land outside the view and be lost without an error.
 *
 * @param card - the card's `section`.
 * @returns the card's view, for locators.
 */
export async function settledViewOf(card: Locator): Promise<FrameLocator> {
  await expect(card).toHaveAttribute("data-card-state", "live");
  await expectFramesSettled(card.page());
  return viewOf(card);
}

/**
 * Brings a card of a conversation that was just opened (a reload, a restart) into view as a
 * person would, then waits until no frame moves: the pointer over the card and a turn of the
 * wheel up end the list's following of its end (which otherwise scrolls the list back down while
 * the cards below grow to their views' height, so a click aimed at this card would land below
 * it), then the card is scrolled into view.
 *
 * @param card - the card's `section`.
 * @returns the card's view, for locators.
 */
export async function scrolledToViewOf(card: Locator): Promise<FrameLocator> {
  await expect(card).toHaveAttribute("data-card-state", "live");
  await card.hover();
  await card.page().mouse.wheel(0, -400);
  await card.scrollIntoViewIfNeeded();
  return settledViewOf(card);
}

/**
 * Waits until no card frame of the page is changing its size or place: none runs a transition,
 * and every frame's box is the same across two rendering frames.
 *
 * @param page - the chat page.
 */
async function expectFramesSettled(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          new Promise<boolean>((resolve) => {
            const frames = Array.from(document.querySelectorAll('[data-testid="card-iframe"]'));
            const boxes = () =>
              frames
                .map((frame) => {
                  const box = frame.getBoundingClientRect();
                  return `${box.left},${box.top},${box.width},${box.height}`;
                })
                .join(" ");
            const before = boxes();
            requestAnimationFrame(() =>
              requestAnimationFrame(() => {
                const moving = frames.some((frame) =>
                  frame
                    .getAnimations()
                    .some((animation: Animation) => animation.playState === "running"),
                );
                resolve(!moving && boxes() === before);
              }),
            );
          }),
      ),
    )
    .toBe(true);
}
