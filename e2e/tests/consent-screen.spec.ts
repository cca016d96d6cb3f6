// The approval dialog, full screen and the audit, in Chromium with a hostile view of the suite's
// own (support/fixtures/consent-app): it asks for full screen with no gesture, draws "Press Tab,
// then Enter", logs every key it gets, is borderless (transparent), and calls a destructive tool at
// the moment of its choosing. Each test tries the attack, asserts it failed, and then walks the
// honest path (the person says yes, the call runs).
import { expect, test, type Page } from "@playwright/test";
import { cards, viewOf } from "../support/card-frames";
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

test("a view cannot take full screen without the person; with a yes it is opaque under the host's bar", async ({
  page,
}, testInfo) => {
  await started(page);
  const { card, view } = await openTrap(page);

  // The attack: `ui/request-display-mode` with no gesture. The host asks instead, naming the app.
  const prompt = page.getByTestId("display-mode-prompt");
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText("Show “Open trap” in full screen?");
  await expect(prompt).toContainText(consentSource);
  await expect(card).toHaveAttribute("data-display-mode", "inline");
  await expect(viewOf(card).getByTestId("trap-mode")).toHaveText("?");

  await acceptFullscreen(page, card);
  await expect(viewOf(card).getByTestId("trap-mode")).toHaveText("fullscreen");
  // The host's bar: the app's name and an Exit button, outside the view's frame.
  const bar = card.getByTestId("card-fullscreen-bar");
  await expect(bar).toBeVisible();
  await expect(bar).toContainText("Open trap");
  await expect(bar).toContainText(consentSource);
  expect(await topmostAt(page, bar.getByTestId("card-exit-fullscreen"))).toBe(
    "card-exit-fullscreen",
  );
  // Opaque although the view is borderless and transparent: nothing of the chat shows through.
  const backgrounds = await card.evaluate((section) => {
    const body = section.querySelector(".mch-card__body");
    const frame = section.querySelector("iframe");
    return [body, frame].map((element) =>
      element === null ? "missing" : getComputedStyle(element).backgroundColor,
    );
  });
  for (const background of backgrounds) {
    expect(background).toMatch(/^rgb\(/);
  }
  // The composer is host UI: drawn above the card in full screen, and keys typed there stay there.
  const composer = page.getByTestId("composer-input");
  expect(await topmostAt(page, composer)).toBe("composer-input");
  await composer.click();
  await page.keyboard.type("secret");
  await expect(composer).toHaveValue("secret");
  expect(
    await view.evaluate(() => document.querySelector('[data-testid="trap-keys"]')?.textContent),
  ).not.toContain("s e c");
  await page.screenshot({ path: testInfo.outputPath("fullscreen-host-bar.png") });
});

test("the approval dialog takes the card out of full screen and ignores the keys the view asked for", async ({
  page,
}, testInfo) => {
  const host = await started(page);
  const { card, view } = await openTrap(page);
  await acceptFullscreen(page, card);

  // 1. The person follows the view's "Press Tab, then Enter" as the dialog opens: the card leaves
  //    full screen, the dialog has the focus, and its first Tab stop is Refuse: the call is refused.
  await viewOf(card).getByTestId("trap-lure").click();
  let dialog = await viewCallsDestroy(page, card, view);
  await expect(card).toHaveAttribute("data-display-mode", "inline");
  await page.keyboard.press("Tab");
  await expect(dialog.getByTestId("approval-refuse")).toBeFocused();
  // Above the card, not under it: the person's click lands on the dialog's own button.
  expect(await topmostAt(page, dialog.getByTestId("approval-allow-once"))).toBe(
    "approval-allow-once",
  );
  await page.screenshot({ path: testInfo.outputPath("approval-over-card.png") });
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  await expect(viewOf(card).getByTestId("trap-result")).toContainText("error");
  expect((await host.toolCalls())[destroyCalls]).toBeUndefined();

  // 2. A key held down from before the dialog repeats into it: the person tabs to Allow once
  //    themselves (Refuse, the reason, Allow once), and the repeat still does nothing.
  await viewOf(card).getByTestId("trap-lure").click();
  await page.keyboard.down("Enter");
  dialog = await viewCallsDestroy(page, card, view);
  await expect(dialog).toHaveAttribute("data-armed", "true");
  for (const stop of ["approval-refuse", "approval-reason", "approval-allow-once"]) {
    await page.keyboard.press("Tab");
    await expect(dialog.getByTestId(stop)).toBeFocused();
  }
  await expect(dialog).toHaveAttribute("data-key-armed", "true");
  await page.keyboard.down("Enter");
  await page.keyboard.up("Enter");
  await expect(dialog.getByTestId("consent-hint")).toBeVisible();
  await expect(dialog).toBeVisible();
  expect((await host.toolCalls())[destroyCalls]).toBeUndefined();

  // 3. The honest path: the person reads it and clicks Allow once; the call runs once.
  await dialog.getByTestId("approval-allow-once").click();
  await expect(dialog).toHaveCount(0);
  await expect(viewOf(card).getByTestId("trap-result")).toContainText("EVERYTHING DELETED");
  expect((await host.toolCalls())[destroyCalls]).toBe(1);

  // The audit shows both: which app called what, the verdict, who answered.
  await page.getByTestId("audit-panel-button").click();
  const audit = page.getByTestId("audit-panel");
  const entries = audit.getByTestId("audit-entry");
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(0)).toHaveAttribute("data-tool", "delete-everything");
  await expect(entries.nth(0)).toHaveAttribute("data-verdict", "allowed");
  await expect(entries.nth(0).getByTestId("audit-source")).toContainText("Open trap");
  await expect(entries.nth(0).getByTestId("audit-approval")).toContainText(
    "You answered: allowed once.",
  );
  await expect(entries.nth(1)).toHaveAttribute("data-verdict", "refused");
  await expect(entries.nth(1).getByTestId("audit-approval")).toContainText(
    "You answered: refused.",
  );
  await page.screenshot({ path: testInfo.outputPath("audit-panel.png") });
  await audit.getByTestId("audit-panel-close").click();
  await expect(audit).toHaveCount(0);
});

test("the exit control works while the view has the focus; Escape only while the host has it", async ({
  page,
}) => {
  await started(page);
  const { card, view } = await openTrap(page);
  await acceptFullscreen(page, card);

  // A key pressed inside the view's frame goes to the view (another origin): the host cannot
  // catch it, so Escape there leaves the card in full screen (docs/security.md says so).
  await viewOf(card).getByTestId("trap-lure").click();
  await page.keyboard.press("Escape");
  await expect
    .poll(() =>
      view.evaluate(() => document.querySelector('[data-testid="trap-keys"]')?.textContent),
    )
    .toContain("Escape");
  await expect(card).toHaveAttribute("data-display-mode", "fullscreen");
  // The host's Exit button, outside the frame, always works.
  await card.getByTestId("card-exit-fullscreen").click();
  await expect(card).toHaveAttribute("data-display-mode", "inline");

  // The person's own click on the card's control needs no question; Escape on the host leaves.
  await card.getByTestId("card-fullscreen").click();
  await expect(card).toHaveAttribute("data-display-mode", "fullscreen");
  await expect(page.getByTestId("display-mode-prompt")).toHaveCount(0);
  await card.getByTestId("card-fullscreen-bar").click();
  await page.keyboard.press("Escape");
  await expect(card).toHaveAttribute("data-display-mode", "inline");
  await expect(cards(page)).toHaveCount(1);
});

test("a view the person kept in the conversation is not asked about again", async ({ page }) => {
  await started(page);
  const { card, view } = await openTrap(page);
  const prompt = page.getByTestId("display-mode-prompt");
  await expect(prompt).toBeVisible();
  await prompt.getByTestId("display-mode-refuse").click();
  await expect(prompt).toHaveCount(0);
  await expect(viewOf(card).getByTestId("trap-mode")).toHaveText("inline");
  await view.evaluate(() =>
    (window as unknown as { trap: { fullscreen(): Promise<void> } }).trap.fullscreen(),
  );
  await expect(prompt).toHaveCount(0);
  await expect(card).toHaveAttribute("data-display-mode", "inline");
});
