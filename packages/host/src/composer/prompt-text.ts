// A server's prompt (`prompts/get`) as the text the composer is filled with: the person reads it,
// may change it, and sends it as their own message.
import type { GetPromptResult } from "@modelcontextprotocol/client";

type PromptContent = GetPromptResult["messages"][number]["content"];

/**
 * The text of a prompt's messages, joined by a blank line: text content as it is, an embedded
 * resource's text (a binary one named), and images, audio and resource links named but not
 * inlined (the composer holds text only).
 *
 * @param result - the server's answer to `prompts/get`.
 * @returns the text for the composer.
 */
export function promptText(result: GetPromptResult): string {
  return result.messages
    .map((message) => contentText(message.content))
    .filter((text) => text.length > 0)
    .join("\n\n");
}

function contentText(content: PromptContent): string {
  switch (content.type) {
    case "text":
      return content.text;
    case "resource": {
      const { resource } = content;
      if ("text" in resource && typeof resource.text === "string") return resource.text;
      return `[Resource ${resource.uri}${typed(resource.mimeType)}]`;
    }
    case "image":
      return `[Image${typed(content.mimeType)}]`;
    case "audio":
      return `[Audio${typed(content.mimeType)}]`;
    case "resource_link":
      return `[Resource ${content.uri}${typed(content.mimeType)}]`;
    default:
      return "";
  }
}

function typed(mimeType: string | undefined): string {
  return mimeType === undefined ? "" : ` (${mimeType})`;
}
