// End-to-end tests in Debian's Chromium against the real server (see ../scripts/ensure-chromium.mjs,
// which `npm test` runs first). No browser is downloaded: Playwright drives the system Chromium.
import { accessSync, constants } from "node:fs";
import { defineConfig } from "@playwright/test";

function chromiumPath(): string {
  for (const candidate of [
    process.env.CHROMIUM_PATH,
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
  ]) {
    if (!candidate) continue;
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // try the next one
    }
  }
  throw new Error("No Chromium found; run `node scripts/ensure-chromium.mjs` for instructions.");
}

export default defineConfig({
  testDir: "./tests",
  outputDir: "./artifacts/results",
  workers: 1,
  // On CI a failed test runs once more and is reported as "flaky" if it then passes, so a timing
  // hiccup of a 2-core machine does not sink a submission but still shows in the output.
  retries: process.env["CI"] === "true" ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  use: {
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
