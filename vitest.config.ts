// One `vitest run` at the root runs every workspace's unit and integration tests.
// Each workspace may add its own vitest.config.ts (environment, timeouts); e2e/ is Playwright's.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*", "bench"],
  },
});
