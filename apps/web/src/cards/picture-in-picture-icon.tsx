// The picture-in-picture button's icon, drawn with SVG: the "⧉" glyph is missing from the fonts
// of many systems (Debian's Chromium shows an empty box), like the glyphs in
// components/common/icons.tsx.

/** Props of {@link PictureInPictureIcon}. */
export interface PictureInPictureIconProps {
  /** Width and height in pixels; default 16. */
  size?: number;
}

/**
 * A window with a small filled window in its lower right corner (picture in picture). Decorative:
 * screen readers skip it, the button carries the label.
 *
 * @returns the `<svg>` element.
 */
export function PictureInPictureIcon(props: PictureInPictureIconProps) {
  const size = props.size ?? 16;
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      data-testid="card-pip-icon"
    >
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <rect x="12" y="12" width="6" height="4" rx="1" fill="currentColor" />
    </svg>
  );
}
