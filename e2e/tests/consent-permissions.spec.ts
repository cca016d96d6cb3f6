// A view's powerful permissions, in Chromium with a view of the suite's own
// (support/fixtures/consent-app, `open-camera`) that declares camera and microphone: the host asks
// the person, naming the app, before the card's frame may use either; only granted ones reach the
// frames' `allow` (the host's iframe and the sandbox's inner one, through the proxy URL); the card
// shows them, and withdrawing one loads the view again without it.
import { expect, test, type Frame, type Locator, type Page } from "@playwright/test";
import { cards, openCard, viewFrame, viewOf } from "../support/card-frames";
import { replies, sendMessage, signIn } from "../support/chat-page";
import { startHost, type RunningHost } from "../support/host";

const consentSource = "./fixtures/consent-app";

let host: RunningHost | undefined;

test.afterEach(async () => {
  await host?.stop();
  host = undefined;
});

/** What the view's document may use, as it reports it. */
async function allowedInView(card: Locator): Promise<string> {
  const view: Frame = await viewFrame(card);
  return view.evaluate(() =>
    (window as unknown as { camera: { allowed(): string } }).camera.allowed(),
  );
}

/** Asks for the camera view; its card waits for the person's answer before it loads. */
async function askForCamera(page: Page): Promise<{ card: Locator; prompt: Locator }> {
  host = await startHost({ servers: [consentSource] });
  await signIn(page, host);
  const before = await replies(page).count();
  await sendMessage(page, "/call open-camera");
  expect(await replies(page).count()).toBe(before + 1);
  const card = cards(page).last();
  const prompt = page.getByTestId("permission-prompt");
  await expect(prompt).toBeVisible();
  return { card, prompt };
}

test("nothing reaches the frame before the person says yes; yes grants exactly what was declared", async ({
  page,
}, testInfo) => {
  const { card, prompt } = await askForCamera(page);
  await expect(prompt).toContainText("Let “Open camera” use your camera and your microphone?");
  await expect(prompt.getByTestId("permission-prompt-source")).toHaveText(consentSource);
  // Asked before anything loads: no proxy, no `allow`.
  const frame = card.getByTestId("card-iframe");
  await expect(frame).not.toHaveAttribute("allow", /.+/);
  await expect(frame).not.toHaveAttribute("src", /.+/);
  await page.screenshot({ path: testInfo.outputPath("permission-prompt.png") });

  await prompt.getByTestId("permission-allow").click();
  await expect(prompt).toHaveCount(0);
  await expect(card).toHaveAttribute("data-status", "ready");
  await expect(frame).toHaveAttribute("allow", "camera; microphone");
  await expect(frame).toHaveAttribute("src", /[?&]permissions=/);
  expect(await allowedInView(card)).toBe("camera=true microphone=true");
  await expect(card.getByTestId("card-permissions")).toHaveText(/Camera, Microphone/);

  // Withdrawing the camera loads the view again without it.
  await card.getByTestId("card-permissions").click();
  await card
    .locator('[data-testid="card-permission"][data-permission="camera"]')
    .getByTestId("card-permission-withdraw")
    .click();
  await expect(frame).toHaveAttribute("allow", "microphone");
  await expect(card).toHaveAttribute("data-status", "ready");
  await expect(viewOf(card).getByTestId("camera-state")).toHaveText("initialised");
  await expect.poll(() => allowedInView(card)).toBe("camera=false microphone=true");
  await expect(card.getByTestId("card-permissions")).toHaveText(/Microphone/);

  // The answer is kept for the source: its next card opens without a question.
  const { card: second } = await openCard(page, "/call open-camera");
  await expect(page.getByTestId("permission-prompt")).toHaveCount(0);
  await expect(second.getByTestId("card-iframe")).toHaveAttribute("allow", "microphone");
});

test("a refused view gets no `allow` at all and no permission in its proxy URL", async ({
  page,
}) => {
  const { card, prompt } = await askForCamera(page);
  await prompt.getByTestId("permission-refuse").click();
  await expect(prompt).toHaveCount(0);
  await expect(card).toHaveAttribute("data-status", "ready");
  const frame = card.getByTestId("card-iframe");
  expect(await frame.getAttribute("allow")).toBeNull();
  await expect(frame).not.toHaveAttribute("src", /[?&]permissions=/);
  expect(await allowedInView(card)).toBe("camera=false microphone=false");
  await expect(card.getByTestId("card-permissions")).toHaveText("No permissions");
});
