// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { claimFullscreen, leaveFullscreen, releaseFullscreen } from "./fullscreen-owner";

describe("fullscreen owner", () => {
  afterEach(() => {
    releaseFullscreen("a");
    releaseFullscreen("b");
    vi.restoreAllMocks();
  });

  it("lets one card hold full screen: a second one sends the first back inline", () => {
    const leaveA = vi.fn();
    const leaveB = vi.fn();
    claimFullscreen("a", leaveA);
    claimFullscreen("b", leaveB);
    expect(leaveA).toHaveBeenCalledTimes(1);
    expect(leaveB).not.toHaveBeenCalled();
  });

  it("leaveFullscreen brings the card in full screen back inline, once", () => {
    const leave = vi.fn();
    claimFullscreen("a", leave);
    leaveFullscreen();
    leaveFullscreen();
    expect(leave).toHaveBeenCalledTimes(1);
  });

  it("leaveFullscreen takes the page out of the browser's full screen too", () => {
    const exit = vi.fn(() => Promise.resolve());
    // jsdom has no Fullscreen API: the document is given one in browser full screen.
    Object.defineProperty(document, "fullscreenElement", {
      value: document.body,
      configurable: true,
    });
    Object.defineProperty(document, "exitFullscreen", { value: exit, configurable: true });
    try {
      leaveFullscreen();
      expect(exit).toHaveBeenCalledTimes(1);
    } finally {
      Reflect.deleteProperty(document, "fullscreenElement");
      Reflect.deleteProperty(document, "exitFullscreen");
    }
  });
});
