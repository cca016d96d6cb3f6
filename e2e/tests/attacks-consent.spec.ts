// Consent no view can steer, in Chromium with the suite's hostile view (support/fixtures/
// consent-app): it takes full screen (the person said yes), draws "Press Tab, then Enter", and
// calls its destructive tool at the moment of its choosing. The keys and clicks it can script for
// the person (Tab then Enter after the dialog armed, Enter or Space alone, a key held down, a
// double click where Allow will appear (in consent-arming.test.ts), Tab Tab Enter, Shift+Tab then Enter) must not run the
// tool; the person's own way to Allow once (Tab to it, then Enter; or a click) must.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { viewOf } from "../support/card-frames";
import { signIn } from "../support/chat-page";
import {
  acceptFullscreen,
  consentSource,
  destroyCalls,
  openTrap,
  topmostAt,
  viewCallsDestroy,
} from "../support/consent-trap";
import { startHost, type RunningHost } from "../support/host";

let host: RunningHost | undefined;

test.afterEach(async () => {
  await host?.stop();
  host = undefined;
});

async function started(page: Page): Promise<RunningHost> {
  host = await startHost({ servers: [consentSource] });
  await signIn(page, host);
  return host;
}

/** Waits until the dialog's buttons are armed: the person has had the moment to read it. */
async function armed(dialog: Locator): Promise<void> {
  await expect(dialog).toHaveAttribute("data-armed", "true");
}

/** Presses Tab until `target` has the focus (at most `most` presses), as the person does. */
async function tabTo(page: Page, target: Locator, most = 6): Promise<void> {
  for (let press = 0; press < most; press++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
}

test("a full-screen view's “Press Tab, then Enter” refuses its call: the dialog takes the card out of full screen and starts on Refuse", async ({
  page,
}, testInfo) => {
  const host = await started(page);
  const { card, view } = await openTrap(page);
  await acceptFullscreen(page, card);

  await viewOf(card).getByTestId("trap-lure").click();
  const dialog = await viewCallsDestroy(page, card, view);
  // The card left full screen for the question; the dialog is on top, naming who asks for what.
  await expect(card).toHaveAttribute("data-display-mode", "inline");
  await expect(card.getByTestId("card-fullscreen-bar")).toHaveCount(0);
  await expect(dialog.getByTestId("approval-card-title")).toHaveText("Open trap");
  await expect(dialog.getByTestId("approval-source")).toHaveText(consentSource);
  await expect(dialog.getByTestId("approval-tool")).toHaveText("delete-everything");
  await expect(dialog.getByTestId("approval-arguments")).toHaveText("{}");
  await expect(dialog.getByTestId("badge-destructive")).toBeVisible();
  expect(await topmostAt(page, dialog.getByTestId("approval-allow-once"))).toBe(
    "approval-allow-once",
  );
  expect(await topmostAt(page, dialog.getByTestId("approval-refuse"))).toBe("approval-refuse");
  await page.screenshot({ path: testInfo.outputPath("approval-after-fullscreen.png") });

  // The attack: the person reads the dialog (it arms), then does what the view said.
  await armed(dialog);
  await page.keyboard.press("Tab");
  await expect(dialog.getByTestId("approval-refuse")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  await expect(viewOf(card).getByTestId("trap-result")).toContainText("error");
  expect((await host.toolCalls())[destroyCalls]).toBeUndefined();
});

test("Enter or Space alone and a held key do nothing; the person's own Tab to Allow once and Enter runs the call", async ({
  page,
}) => {
  const host = await started(page);
  const { card, view } = await openTrap(page);
  await acceptFullscreen(page, card);

  await viewOf(card).getByTestId("trap-lure").click();
  // A key held down in the view from before the question.
  await page.keyboard.down("Enter");
  const dialog = await viewCallsDestroy(page, card, view);
  await expect(card).toHaveAttribute("data-display-mode", "inline");
  const allowOnce = dialog.getByTestId("approval-allow-once");

  // A double click where Allow once appears, both presses before the dialog armed, is refused
  // by `consent-arming.test.ts` on its own clock: here, a stalled machine could arm the dialog
  // between its appearing and the click, and the test would race.
  await armed(dialog);
  // Enter and Space on the dialog itself (its first focus): no button is chosen for the person.
  await dialog.focus();
  await page.keyboard.up("Enter");
  await page.keyboard.press("Enter");
  await page.keyboard.press(" ");
  await expect(dialog).toBeFocused();
  await expect(dialog).toBeVisible();

  // The held key: the person tabs to Allow once with Enter down; its auto-repeat does nothing.
  await page.keyboard.down("Enter");
  await tabTo(page, allowOnce);
  await expect(dialog).toHaveAttribute("data-key-armed", "true");
  await page.keyboard.down("Enter");
  await page.keyboard.up("Enter");
  await expect(dialog.getByTestId("consent-hint")).toBeVisible();
  await expect(dialog).toBeVisible();
  expect((await host.toolCalls())[destroyCalls]).toBeUndefined();

  // The honest path: the focus is where the person put it; a fresh Enter allows, once.
  await expect(allowOnce).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  await expect(viewOf(card).getByTestId("trap-result")).toContainText("EVERYTHING DELETED");
  expect((await host.toolCalls())[destroyCalls]).toBe(1);
});

test("“Tab Tab Enter” and “Shift+Tab, Enter” reach only refusing controls; a click on Allow once after it armed runs the call", async ({
  page,
}) => {
  const host = await started(page);
  const { card, view } = await openTrap(page);
  await acceptFullscreen(page, card);

  // Shift+Tab from the dialog goes to Refuse too, not round to the last Allow button.
  await viewOf(card).getByTestId("trap-lure").click();
  let dialog = await viewCallsDestroy(page, card, view);
  await armed(dialog);
  await page.keyboard.press("Shift+Tab");
  await expect(dialog.getByTestId("approval-refuse")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);

  // Tab Tab lands in the reason field, where Enter refuses.
  await viewOf(card).getByTestId("trap-lure").click();
  dialog = await viewCallsDestroy(page, card, view);
  await armed(dialog);
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(dialog.getByTestId("approval-reason")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  expect((await host.toolCalls())[destroyCalls]).toBeUndefined();

  // The honest click, after the dialog armed.
  await viewOf(card).getByTestId("trap-lure").click();
  dialog = await viewCallsDestroy(page, card, view);
  await armed(dialog);
  await dialog.getByTestId("approval-allow-once").click();
  await expect(dialog).toHaveCount(0);
  await expect(viewOf(card).getByTestId("trap-result")).toContainText("EVERYTHING DELETED");
  expect((await host.toolCalls())[destroyCalls]).toBe(1);
});
