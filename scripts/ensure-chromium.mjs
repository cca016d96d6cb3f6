#!/usr/bin/env node
// Finds a Chromium for the end-to-end tests before they run.
// Order: $CHROMIUM_PATH, /usr/bin/chromium, /usr/bin/chromium-browser. When none is found and we
// run as root on Debian, install Debian's `chromium` package; otherwise stop and say how to get one.
// Prints the path it settled on; e2e/playwright.config.ts repeats the same search.
import { accessSync, constants, existsSync } from "node:fs";
import { spawnSync } from "node:child_process";

const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];

function findChromium() {
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not this one; try the next
    }
  }
  return null;
}

let found = findChromium();
if (!found) {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const isDebian = existsSync("/etc/debian_version");
  if (isRoot && isDebian) {
    console.log("No Chromium found; installing Debian's chromium package (about a minute)...");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    const update = spawnSync("apt-get", ["update"], { stdio: "inherit", env });
    const install =
      update.status === 0
        ? spawnSync("apt-get", ["install", "-y", "chromium"], { stdio: "inherit", env })
        : update;
    if (install.status !== 0) {
      console.error("Installing chromium with apt-get failed; see the output above.");
      process.exit(1);
    }
    found = findChromium();
  }
}

if (!found) {
  console.error(
    [
      "The end-to-end tests need Chromium, and none was found.",
      "Looked at: $CHROMIUM_PATH, /usr/bin/chromium, /usr/bin/chromium-browser.",
      "Install one, then run `npm test` again:",
      "  Debian/Ubuntu:  sudo apt-get install chromium",
      "  elsewhere:      install Chromium or Chrome and set CHROMIUM_PATH=/path/to/chromium",
    ].join("\n"),
  );
  process.exit(1);
}
console.log(`Chromium for the end-to-end tests: ${found}`);
