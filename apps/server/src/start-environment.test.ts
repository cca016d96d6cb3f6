import { describe, expect, it } from "vitest";
import { scrubStartEnvironment } from "./start-environment";

// The wiping itself needs a process started with a secret; apps/server/test/cli-environment.test.ts
// runs the command line so and reads /proc/<pid>/environ from a stdio server it starts.
describe("scrubStartEnvironment", () => {
  it("changes nothing where there is no /proc environ", () => {
    expect(scrubStartEnvironment(["ANTHROPIC_API_KEY"], "darwin")).toEqual({
      done: false,
      reason: "not available on darwin",
    });
  });

  it("refuses to touch a variable that is still set (something may still read its string)", () => {
    const name = "MCH_TEST_STILL_SET_TOKEN";
    process.env[name] = "value";
    try {
      expect(scrubStartEnvironment([name], "linux")).toEqual({
        done: false,
        reason: `still set: ${name}`,
      });
    } finally {
      delete process.env[name];
    }
  });
});
