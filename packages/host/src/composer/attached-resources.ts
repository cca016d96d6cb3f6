// The resources a person attached to a message, read from their servers when the message is sent
// (`resources/read`) and kept with it, so the model reads what the person saw then.
import type { ResourceAttachment } from "@mcp-chat-host/protocol";
import type { ReadResourceResult } from "@modelcontextprotocol/client";
import { HostError } from "../host-error";
import type { Source } from "../sources/source";
import type { ResourcePart } from "../store/host-store";

/** The most characters the attachments of one message may hold in all (text and base64). */
const MAX_ATTACHED_CHARACTERS = 100_000;

/** What {@link readAttachedResources} needs: the chat's sources and a log. */
export interface AttachmentReadPorts {
  /** The keys of the chat's sources. */
  sourceKeys: readonly string[];
  source(key: string): Promise<Source>;
  warn(details: Record<string, unknown>, message: string): void;
}

/**
 * Reads each attached resource from its source, in order: a source that is not the chat's and a
 * `ui://` page are refused before anything is read; a read that fails fails the whole send with a
 * sentence naming the resource; the contents together may hold at most
 * {@link MAX_ATTACHED_CHARACTERS} characters.
 *
 * @returns one part per content the servers answered.
 * @throws {HostError} `refused`, `unavailable` or `too_large`, each with its sentence.
 */
export async function readAttachedResources(
  attachments: readonly ResourceAttachment[],
  ports: AttachmentReadPorts,
): Promise<ResourcePart[]> {
  for (const attachment of attachments) checkAttachment(attachment, ports.sourceKeys);
  const parts: ResourcePart[] = [];
  const listed = new Map<string, Promise<Map<string, string>>>();
  let characters = 0;
  for (const attachment of attachments) {
    let result: ReadResourceResult;
    try {
      const source = await ports.source(attachment.source);
      result = await source.readResource(attachment.uri);
    } catch (error) {
      ports.warn({ err: error, source: attachment.source, uri: attachment.uri }, "read failed");
      throw new HostError("unavailable", readFailedMessage(attachment), { retryable: true });
    }
    const names = await resourceNames(attachment.source, ports, listed);
    for (const content of result.contents) {
      const part = resourcePart(attachment.source, content);
      const name = names.get(part.uri);
      if (name !== undefined) part.name = name;
      characters += (part.text?.length ?? 0) + (part.blob?.length ?? 0);
      if (characters > MAX_ATTACHED_CHARACTERS) throw new HostError("too_large", TOO_LARGE_MESSAGE);
      parts.push(part);
    }
  }
  return parts;
}

/** The sentence of attachments larger than {@link MAX_ATTACHED_CHARACTERS} together. */
export const TOO_LARGE_MESSAGE = `The attached resources are too large together (at most ${MAX_ATTACHED_CHARACTERS.toLocaleString("en-US")} characters); attach fewer or smaller ones.`;

/** The sentence of an attachment whose server could not read it. */
export function readFailedMessage(attachment: ResourceAttachment): string {
  return `Couldn't read ${attachment.uri} from ${attachment.source}; remove it or try again.`;
}

/** The sentence of an attachment of a server the chat does not use. */
export function notTheChatsMessage(attachment: ResourceAttachment): string {
  return `${attachment.uri} belongs to ${attachment.source}, which this chat does not use; attach resources of this chat's servers only.`;
}

/** The sentence of an attached `ui://` page. */
export function viewNotAttachableMessage(attachment: ResourceAttachment): string {
  return `${attachment.uri} is an app's page, not something to attach; remove it.`;
}

function checkAttachment(attachment: ResourceAttachment, sourceKeys: readonly string[]): void {
  if (!sourceKeys.includes(attachment.source)) {
    throw new HostError("refused", notTheChatsMessage(attachment));
  }
  if (attachment.uri.toLowerCase().startsWith("ui://")) {
    throw new HostError("refused", viewNotAttachableMessage(attachment));
  }
}

/**
 * The names a source gives its resources (by URI), listed once per source and send, so the
 * message can name what was attached. Best effort: a listing that fails names nothing.
 */
function resourceNames(
  sourceKey: string,
  ports: AttachmentReadPorts,
  listed: Map<string, Promise<Map<string, string>>>,
): Promise<Map<string, string>> {
  let names = listed.get(sourceKey);
  if (names === undefined) {
    names = ports
      .source(sourceKey)
      .then((source) => source.listResources())
      .then(
        (result) => new Map(result.resources.map((resource) => [resource.uri, resource.name])),
        (error: unknown) => {
          ports.warn({ err: error, source: sourceKey }, "could not list resources to name them");
          return new Map<string, string>();
        },
      );
    listed.set(sourceKey, names);
  }
  return names;
}

function resourcePart(
  source: string,
  content: ReadResourceResult["contents"][number],
): ResourcePart {
  const part: ResourcePart = { type: "resource", source, uri: content.uri };
  if (content.mimeType !== undefined) part.mimeType = content.mimeType;
  if ("text" in content && typeof content.text === "string") part.text = content.text;
  else if ("blob" in content && typeof content.blob === "string") part.blob = content.blob;
  return part;
}
