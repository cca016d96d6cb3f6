// How a card's iframe follows the size its view reports (`ui/notifications/size-changed`) in
// flexible (inline) mode, without feedback loops. Two rules keep it stable:
// 1. Small shrinks are ignored: views whose layout depends on their own frame height (100vh,
//    scrollbars, borders) tend to oscillate by a pixel or two; growing always wins.
// 2. The container size the host reports to the view (`containerDimensions`) never contains the
//    height the host just set from the view's report: inline, it is the container's width and a
//    constant `maxHeight`, so setting the iframe's height cannot trigger a new report.

/** Shrinks of at most this many pixels are ignored. */
export const shrinkTolerancePixels = 4;

/** Smallest height a view may shrink its frame to, in pixels. */
export const minimumFrameHeight = 48;

/** Tallest inline frame, in pixels; also the `maxHeight` the view is told inline. */
export const maximumInlineFrameHeight = 6_000;

/**
 * The iframe height after a view reported its size.
 *
 * @param input - `current`: the iframe's height now; `reported`: the view's `height`
 *   (may be absent: the types make it optional); `maximum`/`minimum`: bounds in pixels.
 * @returns the new height, or null to leave the iframe as it is (nothing reported, no change,
 *   or a shrink of at most {@link shrinkTolerancePixels}).
 */
export function nextFrameHeight(input: {
  current: number;
  reported: unknown;
  maximum?: number;
  minimum?: number;
}): number | null {
  const { current, reported } = input;
  if (typeof reported !== "number" || !Number.isFinite(reported) || reported < 0) return null;
  const maximum = input.maximum ?? maximumInlineFrameHeight;
  const minimum = input.minimum ?? minimumFrameHeight;
  const target = Math.min(maximum, Math.max(minimum, Math.ceil(reported)));
  if (target === current) return null;
  if (target < current && current - target <= shrinkTolerancePixels) return null;
  return target;
}

/** The `containerDimensions` a view is told, per the spec's shape. */
export type ContainerDimensions =
  { width: number; maxHeight: number } | { width: number; height: number };

/**
 * The container size to tell the view for a display mode.
 *
 * Inline the view drives its height (flexible): only the width and a constant `maxHeight` are
 * reported, never the container's measured height, which the host itself set from the view's
 * last report. Fullscreen and picture-in-picture have a fixed size that the host owns, so both
 * width and height are reported.
 *
 * @param mode - the card's display mode.
 * @param measured - the stable container's content box, in CSS pixels.
 * @returns the dimensions, rounded to whole pixels.
 */
export function containerDimensionsFor(
  mode: "inline" | "fullscreen" | "pip",
  measured: { width: number; height: number },
): ContainerDimensions {
  const width = Math.max(0, Math.round(measured.width));
  if (mode === "inline") return { width, maxHeight: maximumInlineFrameHeight };
  return { width, height: Math.max(0, Math.round(measured.height)) };
}
