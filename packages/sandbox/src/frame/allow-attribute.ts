import { permissionFeatures, type McpUiResourcePermissions } from "../resource-metadata";

/**
 * Lists the Permissions Policy features a view requested, for an iframe's `allow` attribute
 * (same output as the ext-apps SDK's helper: `"camera; microphone; geolocation; clipboard-write"`).
 * Delegation needs the same value on both frames: the host's outer iframe and the proxy's inner one.
 * A key counts as requested when its value is an object (`{}`), as the spec types say.
 *
 * @param permissions - the resource's `_meta.ui.permissions`, or undefined.
 * @returns the attribute value, `""` when nothing is requested; never throws.
 */
export function buildAllowAttribute(permissions?: McpUiResourcePermissions): string {
  if (permissions === null || typeof permissions !== "object") return "";
  const features: string[] = [];
  for (const [name, feature] of Object.entries(permissionFeatures)) {
    const value: unknown = permissions[name as keyof typeof permissionFeatures];
    if (value !== null && typeof value === "object") features.push(feature);
  }
  return features.join("; ");
}
