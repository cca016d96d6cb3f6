// Tells whether a card's iframe stayed the same element and never loaded again. A script the
// page runs before its own gives every card iframe a number when it enters the DOM and counts
// its `load` events; a replaced element gets a new number, a reloaded one a higher count. The
// view's window gets a marker too: a view document made again would not have it.
import { expect, type Frame, type Page } from "@playwright/test";

/** One card iframe as the page script saw it. */
export interface CardFrameRecord {
  /** Given in the order the iframes entered the page, from 1. */
  readonly element: number;
  /** `load` events of this element since it entered the page. */
  readonly loads: number;
}

interface WatchedFrame extends HTMLIFrameElement {
  __e2eElement?: number;
  __e2eLoads?: number;
}

/**
 * Makes the page number and count every card iframe, now and after each reload. Call it before
 * the page loads the chat (before signing in).
 *
 * @param page - the chat page.
 */
export async function watchCardFrames(page: Page): Promise<void> {
  await page.addInitScript(() => {
    // Only the chat page itself: the script also runs in every frame.
    if (window !== window.top) return;
    let next = 0;
    const watch = (frame: WatchedFrame): void => {
      if (frame.__e2eElement !== undefined) return;
      next += 1;
      frame.__e2eElement = next;
      frame.__e2eLoads = 0;
      frame.addEventListener("load", () => {
        frame.__e2eLoads = (frame.__e2eLoads ?? 0) + 1;
      });
    };
    new MutationObserver(() => {
      Array.from(
        document.querySelectorAll<WatchedFrame>('iframe[data-testid="card-iframe"]'),
      ).forEach(watch);
    }).observe(document, { childList: true, subtree: true });
  });
}

/**
 * The card iframes on the page, in page order, as the page script numbered and counted them.
 *
 * @param page - the chat page (after {@link watchCardFrames}).
 * @returns one record per card iframe.
 */
export function cardFrameRecords(page: Page): Promise<CardFrameRecord[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<WatchedFrame>('iframe[data-testid="card-iframe"]')).map(
      (frame) => ({ element: frame.__e2eElement ?? 0, loads: frame.__e2eLoads ?? 0 }),
    ),
  );
}

/**
 * Waits until the card iframe at `index` has loaded its sandbox proxy once, and returns its record.
 *
 * @param page - the chat page.
 * @param index - the card's position on the page.
 * @returns the record once its element loaded.
 */
export async function loadedCardFrame(page: Page, index = 0): Promise<CardFrameRecord> {
  let record: CardFrameRecord | undefined;
  await expect
    .poll(async () => {
      record = (await cardFrameRecords(page))[index];
      return record?.loads ?? 0;
    })
    .toBeGreaterThan(0);
  if (record === undefined) throw new Error(`No card iframe at ${index}.`);
  return record;
}

/**
 * Marks the view's window, so a later check can tell the same document from a new one.
 *
 * @param view - the view's frame (see `viewFrame`).
 */
export async function markView(view: Frame): Promise<void> {
  await view.evaluate(() => {
    (window as unknown as { __e2eView: string }).__e2eView = "first";
  });
}

/**
 * @param view - the view's frame.
 * @returns whether the view's window still carries the marker of {@link markView}.
 */
export async function viewIsMarked(view: Frame): Promise<boolean> {
  if (view.isDetached()) return false;
  return view.evaluate(() => (window as unknown as { __e2eView?: string }).__e2eView === "first");
}
