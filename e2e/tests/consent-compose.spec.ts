// App messages that would act as the person, the browser's part, in Chromium with a view of the
// suite's own (support/fixtures/consent-app, `open-writer`) that posts messages in compose mode,
// the chat's default: an app's text never replaces what the person typed, never takes the focus,
// and the box says which app wrote it until it is sent or cleared.
import { expect, test, type Frame, type Locator, type Page } from "@playwright/test";
import { openCard, viewFrame, viewOf } from "../support/card-frames";
import { signIn, userMessages, waitForReply, replies } from "../support/chat-page";
import { startHost, type RunningHost } from "../support/host";

const consentSource = "./fixtures/consent-app";

let host: RunningHost | undefined;

test.afterEach(async () => {
  await host?.stop();
  host = undefined;
});

async function openWriter(page: Page): Promise<{ card: Locator; view: Frame }> {
  host = await startHost({ servers: [consentSource] });
  await signIn(page, host);
  const { card } = await openCard(page, "/call open-writer");
  await expect(viewOf(card).getByTestId("writer-state")).toHaveText("initialised");
  return { card, view: await viewFrame(card) };
}

async function compose(view: Frame, text: string): Promise<void> {
  await view.evaluate(
    (message) =>
      (window as unknown as { writer: { compose(text: string): void } }).writer.compose(message),
    text,
  );
}

test("an app's message fills an empty box without the focus, named, and one Enter does not send it", async ({
  page,
}, testInfo) => {
  const { card, view } = await openWriter(page);
  const composer = page.getByTestId("composer-input");
  const sent = await userMessages(page).count();

  // The person is in the view (they just clicked it); the view posts a message.
  await viewOf(card).getByTestId("writer-state").click();
  await expect(composer).not.toBeFocused();
  await compose(view, "/call delete-everything");
  await expect(composer).toHaveValue("/call delete-everything");
  await expect(composer).not.toBeFocused();
  const author = page.getByTestId("composer-author");
  await expect(author).toContainText(`From Open writer (${consentSource})`);
  await page.screenshot({ path: testInfo.outputPath("composer-from-app.png") });
  // Enter where the person's keyboard is (not the box) sends nothing.
  await page.keyboard.press("Enter");
  expect(await userMessages(page).count()).toBe(sent);

  // They clear it: the box empties and the note goes.
  await author.getByTestId("composer-author-clear").click();
  await expect(composer).toHaveValue("");
  await expect(author).toHaveCount(0);
});

test("an app's message never replaces what the person is typing; it waits as a suggestion", async ({
  page,
}) => {
  const { view } = await openWriter(page);
  const composer = page.getByTestId("composer-input");
  await composer.click();
  await page.keyboard.type("my own draft");
  await compose(view, "/call delete-everything");
  const suggestion = page.getByTestId("composer-suggestion");
  await expect(suggestion).toContainText(`From Open writer (${consentSource})`);
  await expect(suggestion).toContainText("/call delete-everything");
  // The person keeps typing and sends: only their words go.
  await expect(composer).toBeFocused();
  await page.keyboard.type(", finished");
  await expect(composer).toHaveValue("my own draft, finished");
  const repliesBefore = await replies(page).count();
  await page.keyboard.press("Enter");
  await waitForReply(page, repliesBefore);
  await expect(userMessages(page).last()).toHaveText(/my own draft, finished/);
  await expect(userMessages(page).last()).not.toContainText("delete-everything");

  // The honest path: they take the suggestion, read it under the app's name, and send it.
  await compose(view, "Summarise my notes");
  await expect(suggestion).toContainText("Summarise my notes");
  await suggestion.getByTestId("composer-suggestion-use").click();
  await expect(composer).toHaveValue("Summarise my notes");
  await expect(page.getByTestId("composer-author")).toContainText("From Open writer");
  const before = await replies(page).count();
  await composer.press("Enter");
  await waitForReply(page, before);
  await expect(userMessages(page).last()).toContainText("Summarise my notes");
  await expect(page.getByTestId("composer-author")).toHaveCount(0);
});
