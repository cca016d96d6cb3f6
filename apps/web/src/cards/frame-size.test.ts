// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import {
  containerDimensionsFor,
  maximumInlineFrameHeight,
  minimumFrameHeight,
  nextFrameHeight,
  shrinkTolerancePixels,
} from "./frame-size";

describe("nextFrameHeight", () => {
  it("follows growth and real shrinks", () => {
    expect(nextFrameHeight({ current: 240, reported: 512 })).toBe(512);
    expect(nextFrameHeight({ current: 512, reported: 300 })).toBe(300);
    expect(nextFrameHeight({ current: 240, reported: 241 })).toBe(241);
  });

  it("ignores shrinks of at most 4 pixels", () => {
    for (let shrink = 1; shrink <= shrinkTolerancePixels; shrink += 1) {
      expect(nextFrameHeight({ current: 500, reported: 500 - shrink })).toBeNull();
    }
    expect(nextFrameHeight({ current: 500, reported: 500 - shrinkTolerancePixels - 1 })).toBe(495);
  });

  it("does nothing when the height is unchanged or not reported", () => {
    expect(nextFrameHeight({ current: 300, reported: 300 })).toBeNull();
    expect(nextFrameHeight({ current: 300, reported: 299.4 })).toBeNull();
    expect(nextFrameHeight({ current: 300, reported: undefined })).toBeNull();
    expect(nextFrameHeight({ current: 300, reported: Number.NaN })).toBeNull();
    expect(nextFrameHeight({ current: 300, reported: -5 })).toBeNull();
    expect(nextFrameHeight({ current: 300, reported: "400" })).toBeNull();
  });

  it("stays within bounds", () => {
    expect(nextFrameHeight({ current: 300, reported: 10_000_000 })).toBe(maximumInlineFrameHeight);
    expect(nextFrameHeight({ current: 300, reported: 0 })).toBe(minimumFrameHeight);
  });

  it("settles: a view that reports what it was given causes no further change", () => {
    // A 100vh view re-reports the frame's height, with scrollbar jitter of a pixel or two.
    let height = 240;
    const changes: number[] = [];
    const reports = [600, 600, 598, 600, 599, 597, 600];
    for (const reported of reports) {
      const next = nextFrameHeight({ current: height, reported });
      if (next !== null) {
        height = next;
        changes.push(next);
      }
    }
    expect(changes).toEqual([600]);
  });
});

describe("containerDimensionsFor", () => {
  it("inline, never reports the height the host set from the view's report", () => {
    const first = containerDimensionsFor("inline", { width: 640.4, height: 240 });
    const afterResize = containerDimensionsFor("inline", { width: 640.4, height: 812 });
    expect(first).toEqual({ width: 640, maxHeight: maximumInlineFrameHeight });
    // Same value after the iframe grew: the view is not told anything new, so it cannot loop.
    expect(afterResize).toEqual(first);
  });

  it("reports a fixed size in full screen and picture in picture", () => {
    expect(containerDimensionsFor("fullscreen", { width: 1280, height: 759.6 })).toEqual({
      width: 1280,
      height: 760,
    });
    expect(containerDimensionsFor("pip", { width: 384, height: 248 })).toEqual({
      width: 384,
      height: 248,
    });
  });
});
