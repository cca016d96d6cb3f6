// What `ui/download-file` may save. The names come from the view, so they are reduced to a plain
// file name before the person sees them or the browser uses them; the total size is capped so a
// view cannot make the page build a huge Blob.
import type { DownloadItem } from "../state/types/card-view-state";
import { decideOpenLink } from "./open-link";

/** Largest total a view may ask to download at once, in bytes (10 MB). */
export const maximumDownloadBytes = 10 * 1024 * 1024;

/** Longest file name the host uses, in characters. */
export const maximumFileNameLength = 100;

/** Name used when a resource's URI yields no usable file name. */
export const fallbackFileName = "download";

/** What {@link planDownload} concluded. */
export type DownloadPlan =
  | { readonly ok: true; readonly items: readonly DownloadItem[]; readonly totalBytes: number }
  | { readonly ok: false; readonly reason: string };

// C0 and C1 control characters, DEL, bidirectional overrides (which can make "evil\u202etxt.exe"
// read as "evilexe.txt"), path separators, and characters Windows refuses in names.
const unsafeCharacters =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069/\\:*?"<>|]/g;

/**
 * Reduces a resource URI to a safe file name: its last path segment (query and fragment
 * dropped, percent-escapes decoded), without control characters, path separators or characters
 * file systems refuse, without leading dots or surrounding spaces, at most
 * {@link maximumFileNameLength} characters (the extension is kept when the name is cut).
 *
 * @param uri - the `resource.uri` (embedded) or `uri` (link) the view gave.
 * @returns a non-empty file name; {@link fallbackFileName} when nothing usable is left.
 */
export function sanitiseFileName(uri: unknown): string {
  if (typeof uri !== "string") return fallbackFileName;
  const withoutSuffix = uri.split(/[?#]/, 1)[0] ?? "";
  const segments = withoutSuffix.split(/[/\\]/).filter((segment) => segment !== "");
  let name = segments[segments.length - 1] ?? "";
  // A bare "scheme:" (e.g. "data:") is not a name.
  if (segments.length === 1 && /^[a-z][a-z0-9+.-]*:$/i.test(name)) name = "";
  try {
    name = decodeURIComponent(name);
  } catch {
    // A malformed escape stays as written; it is still cleaned below.
  }
  name = name.replace(unsafeCharacters, "").trim().replace(/^\.+/, "").trim();
  if (name === "") return fallbackFileName;
  if (name.length <= maximumFileNameLength) return name;
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : "";
  return name.slice(0, maximumFileNameLength - extension.length) + extension;
}

/** Bytes of a base64 payload once decoded (whitespace ignored). */
export function base64DecodedBytes(base64: string): number {
  const compact = base64.replace(/\s+/g, "");
  const padding = compact.endsWith("==") ? 2 : compact.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((compact.length * 3) / 4) - padding);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function planItem(entry: unknown): DownloadItem | string {
  if (!isRecord(entry)) return "The app asked to download something that is not a resource.";
  if (entry.type === "resource" && isRecord(entry.resource)) {
    const resource = entry.resource;
    const name = sanitiseFileName(resource.uri);
    const mimeType =
      typeof resource.mimeType === "string" && resource.mimeType !== ""
        ? resource.mimeType
        : "application/octet-stream";
    if (typeof resource.text === "string") {
      const bytes = new TextEncoder().encode(resource.text).length;
      return { kind: "embedded", name, mimeType, bytes, content: { text: resource.text } };
    }
    if (typeof resource.blob === "string") {
      const bytes = base64DecodedBytes(resource.blob);
      return { kind: "embedded", name, mimeType, bytes, content: { base64: resource.blob } };
    }
    return `The file "${name}" has neither text nor blob content.`;
  }
  if (entry.type === "resource_link" && typeof entry.uri === "string") {
    const decision = decideOpenLink(entry.uri);
    const declared = typeof entry.size === "number" && entry.size >= 0 ? entry.size : null;
    const name = sanitiseFileName(entry.uri);
    return {
      kind: "link",
      name,
      url: decision.allowed ? decision.url : entry.uri,
      bytes: declared,
      openable: decision.allowed,
    };
  }
  return "The app asked to download something that is neither an embedded resource nor a link.";
}

/**
 * Checks a view's `ui/download-file` contents and lists what would be saved: sanitised names,
 * sizes (embedded text as UTF-8, blobs decoded from base64, links as declared) and whether each
 * link may be opened. Refuses empty requests, unknown items, and a total above
 * {@link maximumDownloadBytes}.
 *
 * @param contents - the request's `contents`.
 * @returns `{ ok: true, items, totalBytes }` to show the person, or `{ ok: false, reason }`.
 */
export function planDownload(contents: unknown): DownloadPlan {
  if (!Array.isArray(contents) || contents.length === 0) {
    return { ok: false, reason: "The app asked to download nothing." };
  }
  if (contents.length > 100) {
    return { ok: false, reason: "The app asked to download more than 100 files at once." };
  }
  const items: DownloadItem[] = [];
  let totalBytes = 0;
  for (const entry of contents) {
    const item = planItem(entry);
    if (typeof item === "string") return { ok: false, reason: item };
    items.push(item);
    totalBytes += item.bytes ?? 0;
    if (totalBytes > maximumDownloadBytes) {
      return {
        ok: false,
        reason: `The app asked to download more than ${maximumDownloadBytes / (1024 * 1024)} MB; the host does not save that much at once.`,
      };
    }
  }
  return { ok: true, items, totalBytes };
}

/**
 * Builds the Blob of an embedded file.
 *
 * @returns the Blob, typed with the item's MIME type.
 * @throws {Error} when a blob payload is not valid base64.
 */
export function createDownloadBlob(item: Extract<DownloadItem, { kind: "embedded" }>): Blob {
  if ("text" in item.content) return new Blob([item.content.text], { type: item.mimeType });
  const binary = atob(item.content.base64.replace(/\s+/g, ""));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return new Blob([bytes], { type: item.mimeType });
}

/**
 * A size for people: "512 B", "12.3 KB", "4.0 MB".
 *
 * @param bytes - a size in bytes, or null when unknown.
 * @returns the label; "size unknown" for null.
 */
export function formatBytes(bytes: number | null): string {
  if (bytes === null) return "size unknown";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
