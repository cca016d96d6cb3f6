// A view's storage, as people's browsers keep it. Each view is a frame on a site of its own
// (`<source>.localhost`) under the host page, so its storage is third-party storage: Chromium
// partitions it by the top-level site and keeps it. Playwright launches Chromium with that
// partitioning turned off (`--disable-features=...,ThirdPartyStoragePartitioning`), and then a
// third-party frame gets no storage at all; this spec launches its own Chromium with Playwright's
// flags except that one, to test what a person's browser does.
import { chromium, expect, test, type Browser, type LaunchOptions } from "@playwright/test";
import { openCard, viewFrame, viewOf } from "../support/card-frames";
import { newConversation, signIn } from "../support/chat-page";
import { startHost, type RunningHost } from "../support/host";

let host: RunningHost | undefined;
let browser: Browser | undefined;

test.afterEach(async () => {
  await browser?.close();
  browser = undefined;
  await host?.stop();
  host = undefined;
});

/** Playwright's Chromium flags with third-party storage partitioning left on (the default). */
async function launchWithPartitioning(options: LaunchOptions): Promise<Browser> {
  const probe = await chromium.launch(options);
  let flag: string | undefined;
  try {
    const page = await probe.newPage();
    await page.goto("chrome://version");
    const commandLine = await page.locator("#command_line").innerText();
    flag = commandLine.split(/\s+/).find((part) => part.startsWith("--disable-features="));
  } finally {
    await probe.close();
  }
  if (flag === undefined) return chromium.launch(options);
  const kept = flag
    .slice("--disable-features=".length)
    .split(",")
    .filter((feature) => feature !== "ThirdPartyStoragePartitioning");
  return chromium.launch({
    ...options,
    ignoreDefaultArgs: [flag],
    args: [...(options.args ?? []), `--disable-features=${kept.join(",")}`],
  });
}

test("a view keeps its localStorage from one card to the next, apart from other sources' views", async () => {
  host = await startHost({ servers: ["./fixtures/hostile-app", "./fixtures/probe-app"] });
  browser = await launchWithPartitioning(test.info().project.use.launchOptions ?? {});
  const page = await browser.newPage();
  await signIn(page, host);

  const first = (await openCard(page, "/call open-hostile")).card;
  await expect(viewOf(first).getByTestId("view-state")).toHaveText("initialised");
  const saved = await (
    await viewFrame(first)
  ).evaluate(() => {
    window.localStorage.setItem("draft", "kept by the view");
    return window.localStorage.getItem("draft");
  });
  expect(saved).toBe("kept by the view");

  // A card of the same source in another conversation (another frame, another document) finds it.
  await newConversation(page);
  const again = (await openCard(page, "/call open-hostile")).card;
  await expect(viewOf(again).getByTestId("view-state")).toHaveText("initialised");
  expect(await (await viewFrame(again)).evaluate(() => window.localStorage.getItem("draft"))).toBe(
    "kept by the view",
  );

  // Another source's view has an origin, and a storage, of its own.
  const other = (await openCard(page, "/call open-probe")).card;
  await expect(viewOf(other).getByTestId("probe-state")).toHaveText("initialised");
  expect(
    await (await viewFrame(other)).evaluate(() => window.localStorage.getItem("draft")),
  ).toBeNull();
});
