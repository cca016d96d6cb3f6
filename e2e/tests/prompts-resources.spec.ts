// A server's prompts and resources in Chromium (support/fixtures/library-app): a `/` in the
// composer offers the chat's prompts; one with arguments asks for them, then fills the box for the
// person to send; Attach adds a resource as a chip, sent with the message and named in it.
import { expect, test } from "@playwright/test";
import { replies, signIn, userMessages, waitForReply } from "../support/chat-page";
import { startHost, type RunningHost } from "../support/host";

// The source key the host knows the server by (its entry in the config file), which the page names.
const librarySource = "./fixtures/library-app";

let host: RunningHost | undefined;

test.afterEach(async () => {
  await host?.stop();
  host = undefined;
});

test("a prompt used as a slash command fills the box, and the person sends it", async ({
  page,
}) => {
  host = await startHost({ servers: [librarySource] });
  await signIn(page, host);
  const composer = page.getByTestId("composer-input");
  await composer.click();
  await page.keyboard.type("/sum");
  const option = page.getByTestId("prompt-option");
  await expect(option).toHaveCount(1);
  await expect(option).toContainText("/summarize");
  await page.keyboard.press("Enter");

  const form = page.getByTestId("prompt-form");
  await expect(form).toContainText("topic (required)");
  await expect(page.getByTestId("prompt-form-submit")).toBeDisabled();
  await page.getByTestId("prompt-argument-topic").fill("MCP");
  await page.getByTestId("prompt-form-submit").click();
  await expect(composer).toHaveValue("Summarize MCP.");
  await expect(form).toHaveCount(0);
  // Nothing was sent until the person says so.
  await expect(userMessages(page)).toHaveCount(0);

  const before = await replies(page).count();
  await composer.press("Enter");
  await waitForReply(page, before);
  await expect(userMessages(page).last()).toContainText("Summarize MCP.");
});

test("Escape closes the slash menu and Enter then sends the text as it is", async ({ page }) => {
  host = await startHost({ servers: [librarySource] });
  await signIn(page, host);
  const composer = page.getByTestId("composer-input");
  await composer.click();
  await page.keyboard.type("/summarize");
  await expect(page.getByTestId("prompt-option")).toHaveCount(1);
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("prompt-menu")).toHaveCount(0);
  const before = await replies(page).count();
  await page.keyboard.press("Enter");
  await waitForReply(page, before);
  await expect(userMessages(page).last()).toContainText("/summarize");
});

test("a resource attached goes with the message and is named in it", async ({ page }) => {
  host = await startHost({ servers: [librarySource] });
  await signIn(page, host);
  await page.getByTestId("attach-button").click();
  const options = page.getByTestId("attach-option");
  await expect(options).toHaveCount(2);
  await options.filter({ hasText: "readme" }).click();
  const chip = page.getByTestId("attachment-chip");
  await expect(chip).toHaveCount(1);
  await expect(chip).toContainText("readme");

  const composer = page.getByTestId("composer-input");
  await composer.fill("What does it say?");
  const before = await replies(page).count();
  await composer.press("Enter");
  await waitForReply(page, before);
  const sent = userMessages(page).last();
  await expect(sent).toContainText("What does it say?");
  await expect(sent.getByTestId("message-attachment")).toHaveText(
    `Attached: readme (${librarySource})`,
  );
  await expect(chip).toHaveCount(0);
});
