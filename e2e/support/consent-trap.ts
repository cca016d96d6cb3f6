// The consent specs' hostile view (support/fixtures/consent-app): opening it, letting the person
// accept its full-screen question, and letting it call its destructive tool at the moment of its
// choosing. Shared by tests/consent-screen.spec.ts and tests/attacks-consent.spec.ts.
import { expect, type Frame, type Locator, type Page } from "@playwright/test";
import { openCard, viewFrame, viewOf } from "./card-frames";

/** support/mcp-servers.ts resolves a `./fixtures/` name as a package path (see attacks.spec.ts). */
export const consentSource = "./fixtures/consent-app";

/** The key of the destructive tool in `RunningHost.toolCalls()`. */
export const destroyCalls = `${consentSource}/delete-everything`;

/** Opens the trap and waits for its view; it asks for full screen as soon as it initialised. */
export async function openTrap(page: Page): Promise<{ card: Locator; view: Frame }> {
  const { card } = await openCard(page, "/call open-trap");
  await expect(viewOf(card).getByTestId("trap-state")).toHaveText("initialised");
  return { card, view: await viewFrame(card) };
}

/** The element the person would hit at the centre of `locator`, as `data-testid` or tag. */
export async function topmostAt(page: Page, locator: Locator): Promise<string> {
  const box = await locator.boundingBox();
  if (box === null) throw new Error("The element has no box.");
  return page.evaluate(
    ({ x, y }) => {
      const element = document.elementFromPoint(x, y);
      const marked = element?.closest("[data-testid]");
      return marked?.getAttribute("data-testid") ?? element?.tagName ?? "nothing";
    },
    { x: box.x + box.width / 2, y: box.y + box.height / 2 },
  );
}

/** Lets the person accept the trap's full-screen question (Playwright waits until it is armed). */
export async function acceptFullscreen(page: Page, card: Locator): Promise<void> {
  const prompt = page.getByTestId("display-mode-prompt");
  await expect(prompt).toBeVisible();
  await prompt.getByTestId("display-mode-allow").click();
  await expect(prompt).toHaveCount(0);
  await expect(card).toHaveAttribute("data-display-mode", "fullscreen");
}

/** Puts the keyboard in the view and lets it call its destructive tool; waits for the dialog. */
export async function viewCallsDestroy(page: Page, card: Locator, view: Frame): Promise<Locator> {
  await view.evaluate(() => (window as unknown as { trap: { destroy(): void } }).trap.destroy());
  await page.waitForFunction(
    () => document.activeElement?.closest('[data-testid="approval-dialog"]') !== null,
    undefined,
    { polling: "raf" },
  );
  await expect(viewOf(card).getByTestId("trap-result")).toHaveText("waiting");
  return page.getByTestId("approval-dialog");
}
