// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { allowedDisplayModes, decideDisplayMode, offeredDisplayModes } from "./display-mode";

describe("decideDisplayMode for a view's request", () => {
  it("honours a mode the view declared and the host offers", () => {
    expect(
      decideDisplayMode({
        requested: "fullscreen",
        current: "inline",
        declared: ["inline", "fullscreen"],
        requestedBy: "view",
      }),
    ).toBe("fullscreen");
    expect(
      decideDisplayMode({
        requested: "pip",
        current: "fullscreen",
        declared: ["pip", "fullscreen"],
        requestedBy: "view",
      }),
    ).toBe("pip");
  });

  it("answers with the current mode for a mode the view did not declare", () => {
    expect(
      decideDisplayMode({
        requested: "pip",
        current: "inline",
        declared: ["inline", "fullscreen"],
        requestedBy: "view",
      }),
    ).toBe("inline");
    expect(
      decideDisplayMode({
        requested: "inline",
        current: "fullscreen",
        declared: ["fullscreen"],
        requestedBy: "view",
      }),
    ).toBe("fullscreen");
  });

  it("switches nothing for a view that declared no modes", () => {
    expect(
      decideDisplayMode({
        requested: "fullscreen",
        current: "inline",
        declared: undefined,
        requestedBy: "view",
      }),
    ).toBe("inline");
    expect(allowedDisplayModes(undefined, "view")).toEqual([]);
  });

  it("ignores modes the host does not offer and values that are not modes", () => {
    expect(
      decideDisplayMode({
        requested: "minimised",
        current: "inline",
        declared: ["inline", "minimised" as "pip"],
        requestedBy: "view",
      }),
    ).toBe("inline");
    expect(
      decideDisplayMode({
        requested: { mode: "fullscreen" },
        current: "inline",
        declared: ["fullscreen"],
        requestedBy: "view",
      }),
    ).toBe("inline");
  });
});

describe("decideDisplayMode for the person's controls", () => {
  it("offers every mode while the view declared none", () => {
    expect(allowedDisplayModes(undefined, "person")).toEqual([...offeredDisplayModes]);
    expect(
      decideDisplayMode({
        requested: "pip",
        current: "inline",
        declared: undefined,
        requestedBy: "person",
      }),
    ).toBe("pip");
  });

  it("keeps to the view's declared modes, but can always bring the card back inline", () => {
    expect(allowedDisplayModes(["fullscreen"], "person")).toEqual(["inline", "fullscreen"]);
    expect(
      decideDisplayMode({
        requested: "pip",
        current: "inline",
        declared: ["inline", "fullscreen"],
        requestedBy: "person",
      }),
    ).toBe("inline");
    expect(
      decideDisplayMode({
        requested: "inline",
        current: "fullscreen",
        declared: ["fullscreen"],
        requestedBy: "person",
      }),
    ).toBe("inline");
  });
});
