/// <reference lib="dom" />
// Follows the host's look in a view: theme, style variables and fonts from `hostContext`. The
// host sends the whole context at `ui/initialize` and then only the fields that changed, so this
// applies whatever is present and leaves the rest as it was.
import {
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
  type McpUiHostContext,
} from "@modelcontextprotocol/ext-apps";

/**
 * Applies the theme (`data-theme` and `color-scheme` on the root element), the host's CSS
 * variables and its font CSS. Without a theme from the host, the page's `color-scheme: light dark`
 * keeps following `prefers-color-scheme`.
 *
 * @param context - the full context or a partial update; `undefined` does nothing.
 */
export function applyHostContext(context: Partial<McpUiHostContext> | undefined): void {
  if (context === undefined) return;
  if (context.theme !== undefined) applyDocumentTheme(context.theme);
  if (context.styles?.variables !== undefined) applyHostStyleVariables(context.styles.variables);
  if (context.styles?.css?.fonts !== undefined) applyHostFonts(context.styles.css.fonts);
}
