import type { ResourceAttachment } from "@mcp-chat-host/protocol";
import type { Chat } from "../session/chat";
import type { ResourcePart } from "../store/host-store";

/**
 * What a turn needs to store the resources a person attached to a message: each read from its
 * server, checked and capped (implemented by the composer's offers, `composer/`).
 */
export interface AttachmentPort {
  /**
   * Reads the attached resources of a message about to be stored.
   *
   * @returns one part per content the servers answered, in the order attached.
   * @throws {HostError} when a resource is not the chat's, cannot be read, or they are too large.
   */
  read(chat: Chat, attachments: readonly ResourceAttachment[]): Promise<ResourcePart[]>;
}
