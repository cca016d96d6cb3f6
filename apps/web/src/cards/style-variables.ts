// The theme a view is told about (`hostContext.styles.variables`), so it can look like part of
// the chat. A subset of the spec's standard keys; each value is the page's own CSS variable of
// the same name when the page defines one on :root, else this palette's value for the theme.
import type { McpUiStyles } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { Theme } from "../state/theme-store";

type Palette = Readonly<Record<string, string>>;

const shared: Palette = {
  "--font-sans":
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  "--font-mono": 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  "--font-weight-normal": "400",
  "--font-weight-medium": "500",
  "--font-weight-semibold": "600",
  "--font-weight-bold": "700",
  "--font-text-xs-size": "0.75rem",
  "--font-text-sm-size": "0.875rem",
  "--font-text-md-size": "1rem",
  "--font-text-lg-size": "1.125rem",
  "--font-text-xs-line-height": "1rem",
  "--font-text-sm-line-height": "1.25rem",
  "--font-text-md-line-height": "1.5rem",
  "--font-text-lg-line-height": "1.75rem",
  "--border-radius-xs": "4px",
  "--border-radius-sm": "6px",
  "--border-radius-md": "8px",
  "--border-radius-lg": "12px",
  "--border-radius-xl": "16px",
  "--border-radius-full": "9999px",
  "--border-width-regular": "1px",
};

const light: Palette = {
  "--color-background-primary": "#ffffff",
  "--color-background-secondary": "#f6f6f7",
  "--color-background-tertiary": "#ececee",
  "--color-background-inverse": "#1f2024",
  "--color-background-info": "#e8f0fe",
  "--color-background-danger": "#fdecec",
  "--color-background-success": "#e7f6ec",
  "--color-background-warning": "#fff4e0",
  "--color-text-primary": "#1f2024",
  "--color-text-secondary": "#54565c",
  "--color-text-tertiary": "#7a7c83",
  "--color-text-inverse": "#ffffff",
  "--color-text-info": "#1a56c4",
  "--color-text-danger": "#b42318",
  "--color-text-success": "#1e7a3c",
  "--color-text-warning": "#8a5300",
  "--color-border-primary": "#d9dadd",
  "--color-border-secondary": "#e6e7e9",
  "--color-border-danger": "#f0a8a2",
  "--color-ring-primary": "#3b82f6",
  "--shadow-sm": "0 1px 2px rgba(0, 0, 0, 0.06)",
  "--shadow-md": "0 4px 12px rgba(0, 0, 0, 0.10)",
};

const dark: Palette = {
  "--color-background-primary": "#1e1f22",
  "--color-background-secondary": "#26272b",
  "--color-background-tertiary": "#2f3035",
  "--color-background-inverse": "#f2f2f3",
  "--color-background-info": "#1c2a44",
  "--color-background-danger": "#3a1d1d",
  "--color-background-success": "#17301f",
  "--color-background-warning": "#3a2c12",
  "--color-text-primary": "#ececee",
  "--color-text-secondary": "#b4b6bc",
  "--color-text-tertiary": "#8c8e95",
  "--color-text-inverse": "#1e1f22",
  "--color-text-info": "#8ab4ff",
  "--color-text-danger": "#ff8a80",
  "--color-text-success": "#7ad59a",
  "--color-text-warning": "#f5c26b",
  "--color-border-primary": "#3a3b41",
  "--color-border-secondary": "#2f3035",
  "--color-border-danger": "#7a2e2a",
  "--color-ring-primary": "#60a5fa",
  "--shadow-sm": "0 1px 2px rgba(0, 0, 0, 0.4)",
  "--shadow-md": "0 4px 12px rgba(0, 0, 0, 0.5)",
};

/**
 * The chat page's own names for some of the spec's variables (see `styles/theme.css`), read when
 * the page does not define the spec's name itself.
 */
const pageVariableAliases: Readonly<Record<string, string>> = {
  "--color-background-primary": "--color-background",
  "--color-background-secondary": "--color-surface",
  "--color-background-tertiary": "--color-surface-strong",
  "--color-background-danger": "--color-danger-surface",
  "--color-background-warning": "--color-warning-surface",
  "--color-text-primary": "--color-text",
  "--color-text-secondary": "--color-text-muted",
  "--color-text-danger": "--color-danger",
  "--color-text-warning": "--color-warning",
  "--color-text-success": "--color-success",
  "--color-border-primary": "--color-border",
  "--color-ring-primary": "--color-focus",
};

/** Reads one CSS custom property of the page; returns "" when it is not set. */
export type CssVariableReader = (name: string) => string;

/**
 * Reads custom properties from the document's root element.
 *
 * @param root - the element to read from; default `document.documentElement`.
 * @returns a reader; it returns "" where there is no document.
 */
export function documentVariableReader(root?: Element): CssVariableReader {
  if (typeof document === "undefined" && root === undefined) return () => "";
  const element = root ?? document.documentElement;
  const style = getComputedStyle(element);
  return (name) => style.getPropertyValue(name).trim();
}

/**
 * The style variables for a theme: for each key, the page's own value under the spec's name, else
 * under its {@link pageVariableAliases} name, else this host's palette.
 *
 * @param theme - the page's theme.
 * @param read - reads the page's CSS variables; default none (palette only).
 * @returns the `styles.variables` of the host context.
 */
export function hostStyleVariables(theme: Theme, read: CssVariableReader = () => ""): McpUiStyles {
  const palette = { ...shared, ...(theme === "dark" ? dark : light) };
  const variables: Record<string, string> = {};
  for (const [name, fallback] of Object.entries(palette)) {
    const alias = pageVariableAliases[name];
    const own = read(name) || (alias !== undefined ? read(alias) : "");
    variables[name] = own !== "" ? own : fallback;
  }
  return variables as McpUiStyles;
}
