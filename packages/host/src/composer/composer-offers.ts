// What a chat's servers offer the person's composer: their prompts (slash commands) and their
// resources (attachments). Each listing asks every source of the chat; a source that fails is left
// out and logged, so one broken server does not hide the others.
import type { ChatPrompt, ChatResource, ResourceAttachment } from "@mcp-chat-host/protocol";
import type { Prompt } from "@modelcontextprotocol/client";
import { HostError } from "../host-error";
import type { Chat } from "../session/chat";
import type { Source } from "../sources/source";
import type { ResourcePart } from "../store/host-store";
import type { AttachmentPort } from "../turns/attachment-port";
import { readAttachedResources } from "./attached-resources";
import { promptText } from "./prompt-text";

/** What {@link ComposerOffers} needs from its session. */
export interface ComposerOffersPorts {
  /** The session's chat, or undefined for an unknown key. */
  chat(key: string): Chat | undefined;
  source(key: string): Promise<Source>;
  warn(details: Record<string, unknown>, message: string): void;
}

/** The prompts and resources of a session's chats, for the composer. */
export class ComposerOffers implements AttachmentPort {
  constructor(private readonly ports: ComposerOffersPorts) {}

  /**
   * The prompts of the chat's sources, in the order of the sources.
   *
   * @throws {HostError} `not_found` for an unknown chat.
   */
  async prompts(chatKey: string): Promise<ChatPrompt[]> {
    const listed = await this.#each(this.#chat(chatKey), "prompts/list", async (source) =>
      (await source.listPrompts()).prompts.map((prompt) => chatPrompt(source.key, prompt)),
    );
    return listed.flat();
  }

  /**
   * Gets a prompt of one of the chat's sources, its required arguments checked first.
   *
   * @returns the prompt's messages as the text for the composer.
   * @throws {HostError} `not_found` for an unknown chat, source or prompt; `bad_request` when a
   *   required argument is missing; a source's errors as they are.
   */
  async promptText(
    chatKey: string,
    sourceKey: string,
    name: string,
    args: Record<string, string>,
  ): Promise<{ text: string }> {
    const chat = this.#chat(chatKey);
    if (!sourceKeysOf(chat).includes(sourceKey)) {
      throw new HostError("not_found", unknownSourceMessage(sourceKey));
    }
    const source = await this.ports.source(sourceKey);
    const prompt = (await source.listPrompts()).prompts.find((entry) => entry.name === name);
    if (prompt === undefined)
      throw new HostError("not_found", unknownPromptMessage(sourceKey, name));
    const missing = (prompt.arguments ?? [])
      .filter((argument) => argument.required === true && (args[argument.name] ?? "").trim() === "")
      .map((argument) => argument.name);
    if (missing.length > 0) {
      throw new HostError("bad_request", missingArgumentsMessage(prompt.title ?? name, missing));
    }
    return { text: promptText(await source.getPrompt(name, args)) };
  }

  /**
   * The resources of the chat's sources that a person can attach: every listed resource but the
   * `ui://` pages, which are app views.
   *
   * @throws {HostError} `not_found` for an unknown chat.
   */
  async resources(chatKey: string): Promise<ChatResource[]> {
    const listed = await this.#each(this.#chat(chatKey), "resources/list", async (source) =>
      (await source.listResources()).resources
        .filter((resource) => !resource.uri.toLowerCase().startsWith("ui://"))
        .map((resource): ChatResource => {
          const entry: ChatResource = {
            source: source.key,
            uri: resource.uri,
            name: resource.name,
          };
          if (resource.title !== undefined) entry.title = resource.title;
          if (resource.description !== undefined) entry.description = resource.description;
          if (resource.mimeType !== undefined) entry.mimeType = resource.mimeType;
          return entry;
        }),
    );
    return listed.flat();
  }

  /** {@inheritDoc AttachmentPort.read} */
  read(chat: Chat, attachments: readonly ResourceAttachment[]): Promise<ResourcePart[]> {
    return readAttachedResources(attachments, {
      sourceKeys: sourceKeysOf(chat),
      source: (key) => this.ports.source(key),
      warn: (details, message) => this.ports.warn(details, message),
    });
  }

  #chat(chatKey: string): Chat {
    const chat = this.ports.chat(chatKey);
    if (chat === undefined) {
      throw new HostError("not_found", `This session has no chat "${chatKey}".`);
    }
    return chat;
  }

  /** Runs `list` on each of the chat's sources; one that fails is logged and left out. */
  async #each<T>(chat: Chat, method: string, list: (source: Source) => Promise<T>): Promise<T[]> {
    const found: T[] = [];
    for (const key of sourceKeysOf(chat)) {
      try {
        found.push(await list(await this.ports.source(key)));
      } catch (error) {
        this.ports.warn({ err: error, source: key, method }, `${key} could not answer ${method}`);
      }
    }
    return found;
  }
}

/** The sentence of a prompt asked of a server the chat does not use. */
export function unknownSourceMessage(sourceKey: string): string {
  return `This chat does not use a server named ${sourceKey}; choose a prompt from the list.`;
}

/** The sentence of a prompt its server does not offer. */
export function unknownPromptMessage(sourceKey: string, name: string): string {
  return `${sourceKey} offers no prompt named ${name}; choose one from the list.`;
}

/** The sentence of a prompt asked without its required arguments. */
export function missingArgumentsMessage(prompt: string, missing: readonly string[]): string {
  const names =
    missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(", ")} and ${missing.at(-1)}`;
  return `The prompt ${prompt} needs a value for ${names}; fill ${missing.length === 1 ? "it" : "them"} in and try again.`;
}

function sourceKeysOf(chat: Chat): readonly string[] {
  return chat.host?.sourceKeys ?? [];
}

function chatPrompt(source: string, prompt: Prompt): ChatPrompt {
  const entry: ChatPrompt = {
    source,
    name: prompt.name,
    arguments: (prompt.arguments ?? []).map((argument) => ({
      name: argument.name,
      ...(argument.description === undefined ? {} : { description: argument.description }),
      ...(argument.required === undefined ? {} : { required: argument.required }),
    })),
  };
  if (prompt.title !== undefined) entry.title = prompt.title;
  if (prompt.description !== undefined) entry.description = prompt.description;
  return entry;
}
