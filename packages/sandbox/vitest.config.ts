import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "sandbox",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    environment: "node",
    // For the files that opt into jsdom (proxy-script.test.ts): load frames and their scripts
    // over HTTP, so the proxy page is fetched from a real sandbox listener on 127.0.0.1.
    environmentOptions: { jsdom: { resources: "usable" } },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
