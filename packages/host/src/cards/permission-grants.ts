// Which of a view's declared permissions reach its sandbox. A view declares
// camera, microphone, geolocation or clipboard-write in `_meta.ui.permissions`; the browser asks
// the person, naming the app, and sends the ones granted for the card's source with
// `card:attach`. Only a permission both declared and granted goes into the proxy URL, which sets
// the inner frame's `allow` attribute; nothing granted means no `allow` at all.
import type { PagePermissionName } from "@mcp-chat-host/protocol";

/**
 * The view's declared permissions kept to those the person granted.
 *
 * @param declared - the view's `_meta.ui.permissions`, as its server sent it.
 * @param granted - the names the browser says the person granted (absent: none).
 * @returns the permissions object for the proxy URL, or undefined when none is left.
 */
export function grantedPermissions(
  declared: Record<string, unknown> | undefined,
  granted: readonly PagePermissionName[] | undefined,
): Record<string, object> | undefined {
  if (declared === undefined || granted === undefined || granted.length === 0) return undefined;
  const kept: Record<string, object> = {};
  for (const name of granted) {
    const value = declared[name];
    if (value !== null && typeof value === "object") kept[name] = {};
  }
  return Object.keys(kept).length === 0 ? undefined : kept;
}
