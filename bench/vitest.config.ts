import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "bench",
    include: ["lib/**/*.test.ts", "benchmarks/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
  },
});
