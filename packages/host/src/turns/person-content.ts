// What the model is given of a person's message: its text, then each resource the person attached,
// as the MCP spec describes an embedded resource (the resource's contents, under its URI).
import type { MessagePart } from "@mcp-chat-host/protocol";
import type { UserContent } from "ai";
import { escapeAttribute } from "../context/context-relay";
import { escapeReportTags } from "../context/report-escape";
import type { MessageFromApp } from "../store/host-store";

type ResourcePart = Extract<MessagePart, { type: "resource" }>;

/**
 * The media types a binary resource is given to the model as a file: the images and PDF documents
 * the AI SDK's providers take as file parts. Any other binary resource is named, not sent, since a
 * provider that cannot take its type would refuse the whole request.
 */
const MODEL_FILE_TYPES = /^(image\/(png|jpeg|gif|webp)|application\/pdf)$/;

/**
 * The content of a person's message for the model: its text alone when nothing is attached (the
 * shape the history has always had, so a provider's cache of it still holds); otherwise the text,
 * then per resource a text part labelled with its URI and source (a text resource's text after the
 * label), and a binary resource of a type providers take as a file part with its media type.
 *
 * @param parts - the stored parts of the person's message.
 * @returns the content of the model's user message.
 */
export function personContent(
  parts: readonly MessagePart[],
  fromApp?: MessageFromApp,
): UserContent {
  const written = parts.map((part) => (part.type === "text" ? part.text : "")).join("");
  // The mark opens the message, so all that follows it is the app's: there is no end to forge.
  const text = fromApp === undefined ? written : `${appAuthorshipMark(fromApp)}\n\n${written}`;
  const resources = parts.filter((part): part is ResourcePart => part.type === "resource");
  if (resources.length === 0) return text;
  const content: Exclude<UserContent, string> = [{ type: "text", text }];
  for (const resource of resources) content.push(...resourceContent(resource));
  return content;
}

/**
 * The line that opens a message an app's view wrote and the host sent (`submit` mode): which
 * app, and that the person did not write it. The names come from the app's server and are
 * escaped as the app context's are.
 *
 * @returns `[Message written by the app "<source>" (card "<title>"), not by the person.]`
 */
function appAuthorshipMark(fromApp: MessageFromApp): string {
  const source = escapeReportTags(escapeAttribute(fromApp.source));
  const title = escapeReportTags(escapeAttribute(fromApp.title));
  return `[Message written by the app "${source}" (card "${title}"), not by the person.]`;
}

/**
 * The text the model reads first in a person's message content (what an unanswered copy of it is
 * matched by).
 *
 * @param content - from {@link personContent}.
 * @param fallback - returned when the content opens with no text.
 */
export function framedText(content: UserContent, fallback: string): string {
  if (typeof content === "string") return content;
  const first = content[0];
  return first?.type === "text" ? first.text : fallback;
}

/** One attached resource as content parts of the person's message. */
function resourceContent(resource: ResourcePart): Exclude<UserContent, string> {
  const label = resourceLabel(resource);
  if (resource.text !== undefined) {
    return [{ type: "text", text: `${label}\n\n${resource.text}` }];
  }
  const mediaType = resource.mimeType ?? "application/octet-stream";
  if (resource.blob !== undefined && MODEL_FILE_TYPES.test(mediaType)) {
    return [
      { type: "text", text: label },
      { type: "file", data: resource.blob, mediaType, filename: fileName(resource.uri) },
    ];
  }
  return [
    {
      type: "text",
      text: `${label}\n\n(Its contents, of type ${mediaType}, cannot be shown to you.)`,
    },
  ];
}

/** The line that says which resource follows, and whose it is. */
function resourceLabel(resource: ResourcePart): string {
  const named = resource.name === undefined ? "" : ` ("${resource.name}")`;
  const typed = resource.mimeType === undefined ? "" : `, ${resource.mimeType}`;
  return `[The person attached the resource ${resource.uri}${named} of the server ${resource.source}${typed}.]`;
}

/** The last segment of a URI's path, as the file's name. */
function fileName(uri: string): string {
  const path = uri.split(/[?#]/)[0] ?? uri;
  return (
    path
      .split("/")
      .filter((segment) => segment.length > 0)
      .at(-1) ?? uri
  );
}
