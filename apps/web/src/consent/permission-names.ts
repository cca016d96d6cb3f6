// The powerful permissions a view may declare (`_meta.ui.permissions`), as the person reads them.
import { pagePermissionNames, type PagePermissionName } from "@mcp-chat-host/protocol";
import {
  buildAllowAttribute,
  type McpUiResourcePermissions,
} from "@modelcontextprotocol/ext-apps/app-bridge";

/** What each permission lets an app do, for a question ("… asks to use your camera"). */
export const permissionPhrases: Readonly<Record<PagePermissionName, string>> = {
  camera: "your camera",
  microphone: "your microphone",
  geolocation: "your location",
  clipboardWrite: "your clipboard (to write to it)",
};

/** Short names, for the card's title bar. */
export const permissionLabels: Readonly<Record<PagePermissionName, string>> = {
  camera: "Camera",
  microphone: "Microphone",
  geolocation: "Location",
  clipboardWrite: "Clipboard",
};

/**
 * The permissions a view declared: the keys of its `_meta.ui.permissions` whose value is an
 * object, as the spec types them, in {@link pagePermissionNames} order. Anything else is ignored.
 *
 * @returns the declared names.
 */
export function declaredPermissions(permissions: unknown): PagePermissionName[] {
  if (permissions === null || typeof permissions !== "object") return [];
  const record = permissions as Record<string, unknown>;
  return pagePermissionNames.filter((name) => {
    const value = record[name];
    return value !== null && typeof value === "object";
  });
}

/** The `_meta.ui.permissions` object holding just these names. */
export function permissionsObject(names: readonly PagePermissionName[]): McpUiResourcePermissions {
  return Object.fromEntries(names.map((name) => [name, {}])) as McpUiResourcePermissions;
}

/**
 * The iframe `allow` attribute for these permissions (`"camera; microphone"`), `""` for none.
 *
 * @returns the attribute's value.
 */
export function allowAttributeFor(names: readonly PagePermissionName[]): string {
  return buildAllowAttribute(permissionsObject(names));
}

/** "your camera and your microphone", for a sentence. */
export function permissionList(names: readonly PagePermissionName[]): string {
  const phrases = names.map((name) => permissionPhrases[name]);
  if (phrases.length <= 1) return phrases.join("");
  return `${phrases.slice(0, -1).join(", ")} and ${phrases[phrases.length - 1]}`;
}
