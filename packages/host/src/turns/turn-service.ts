import type { ChatMessage, ResourceAttachment } from "@mcp-chat-host/protocol";
import type { Chat } from "../session/chat";
import { HostError } from "../host-error";
import { inSpan } from "../telemetry/spans";
import type {
  ConversationRecord,
  MessageFromApp,
  MessagePart,
  MessageRecord,
} from "../store/host-store";
import type { AttachmentPort } from "./attachment-port";
import type { ConversationPort } from "./conversation-port";
import { asMessageNotSaved, messageToWire } from "./message-wire";
import { STOPPED_REASON, Turn, type TurnDeps } from "./turn";
import { beginReply, runReply } from "./turn-run";

/** The statuses of a reply that Retry may run again. */
const RETRYABLE_STATUSES: ReadonlySet<MessageRecord["status"]> = new Set([
  "error",
  "stopped",
  "interrupted",
]);

/**
 * The turns of one session's chats: a person's message is stored (and only then acknowledged),
 * the chat's app context is built, and the model runs with the chat's tools, its reply streamed
 * to the browser and stored as it goes. A chat answers one message at a time.
 */
export class TurnService {
  readonly #running = new Map<string, Turn>();
  readonly #clientIds = new Map<string, string>();

  constructor(
    private readonly deps: TurnDeps,
    private readonly conversations: ConversationPort,
    private readonly attachments: AttachmentPort,
  ) {}

  /** The replies being written, with their live parts (for a tab that just said hello). */
  liveReplies(): ChatMessage[] {
    return [...this.#running.values()].flatMap((turn) =>
      turn.reply ? [messageToWire({ ...turn.reply, parts: turn.storedParts() })] : [],
    );
  }

  /** The chats with a reply being written. */
  runningChats(): string[] {
    return [...this.#running.keys()];
  }

  /** A stored message, with the live parts of a reply still being written. */
  withLiveText(message: MessageRecord): ChatMessage {
    const live = [...this.#running.values()].find((turn) => turn.reply?.id === message.id);
    return messageToWire(
      live ? { ...message, parts: live.parts as MessageRecord["parts"] } : message,
    );
  }

  /**
   * Sends a person's message: stores it (the returned promise resolves once it is committed),
   * then runs the model in the background.
   *
   * @param options - `clientId`: the browser's id of the message; a resend with the same id is
   *   not stored twice. `fromApp`: the app whose view wrote it (stored with the message).
   *   `attachments`: resources of the chat's servers, read before the message is stored and
   *   stored with it as `resource` parts.
   * @throws {HostError} `not_found` for an unknown chat, `busy` while the chat is replying; the
   *   attachments' refusals and read failures; store errors.
   */
  async send(
    chatKey: string,
    text: string,
    options: {
      clientId: string | null;
      fromApp?: MessageFromApp;
      attachments?: readonly ResourceAttachment[];
    },
  ): Promise<{ messageId: string; duplicate: boolean }> {
    const { store } = this.deps.context.services;
    const chat = this.#chat(chatKey);
    if (options.clientId !== null) {
      const seen = this.#clientIds.get(options.clientId);
      if (seen !== undefined) return { messageId: seen, duplicate: true };
    }
    // Reserve the chat before the first await, so two quick messages cannot both start a turn.
    const turn = this.#reserve(chatKey);
    let person: MessageRecord;
    let conversation: ConversationRecord;
    let history: MessageRecord[];
    try {
      // Read before anything is stored: a message is never acknowledged without its attachments.
      const parts: MessagePart[] = [{ type: "text", text }];
      if (options.attachments !== undefined && options.attachments.length > 0) {
        parts.push(...(await this.attachments.read(chat, options.attachments)));
      }
      // A store failure before the message is written is reported as the message not being saved.
      conversation = await this.conversations.current(text).catch(asMessageNotSaved);
      turn.conversationId = conversation.id;
      const stored = await store.listMessages(conversation.id).catch(asMessageNotSaved);
      history = stored.filter((message) => message.chatId === chatKey);
      person = await store.appendMessage({
        conversationId: conversation.id,
        chatId: chatKey,
        role: "user",
        parts,
        ...(options.fromApp === undefined ? {} : { fromApp: options.fromApp }),
      });
      if (stored.length === 0) await this.conversations.titleFromFirstMessage(conversation, text);
    } catch (error) {
      this.#release(turn);
      throw error;
    }
    if (options.clientId !== null) this.#clientIds.set(options.clientId, person.id);
    this.deps.context.emit("message:created", { message: messageToWire(person) });
    turn.done = inSpan("turn", { "mcp_chat_host.chat": chatKey }, () =>
      beginReply(this.deps, turn, chat, conversation, history, person).then((started) =>
        started ? runReply(this.deps, turn, chat, started) : undefined,
      ),
    ).finally(() => this.#release(turn));
    return { messageId: person.id, duplicate: false };
  }

  /**
   * Runs a chat's last turn again after its reply failed, was stopped or was interrupted: no
   * message is added; a new reply to the person's last message follows the old one, which stays
   * as it was (the model is not told its partial text, see `history.ts`).
   *
   * @returns the new reply's id, once the reply is stored.
   * @throws {HostError} `not_found` for an unknown chat or message, `busy` while the chat is
   *   replying, `conflict` when the message is not the chat's last reply or it completed.
   */
  async retry(chatKey: string, messageId: string): Promise<{ messageId: string }> {
    const chat = this.#chat(chatKey);
    const turn = this.#reserve(chatKey);
    try {
      const conversation = this.conversations.shown();
      if (conversation === null) {
        throw new HostError("not_found", "No conversation is open; open it again, then retry.");
      }
      turn.conversationId = conversation.id;
      const stored = (await this.deps.context.services.store.listMessages(conversation.id)).filter(
        (message) => message.chatId === chatKey,
      );
      const { person, history } = retryTarget(stored, messageId);
      const started = await beginReply(this.deps, turn, chat, conversation, history, person);
      if (started === null) {
        throw new HostError("storage", "The new reply could not be saved; try again.", {
          retryable: true,
        });
      }
      turn.done = inSpan(
        "turn",
        { "mcp_chat_host.chat": chatKey, "mcp_chat_host.retry": true },
        () => runReply(this.deps, turn, chat, started),
      ).finally(() => this.#release(turn));
      return { messageId: started.reply.id };
    } catch (error) {
      this.#release(turn);
      throw error;
    }
  }

  /** Stops the chat's running reply; its running tool call is cancelled. */
  stop(chatKey: string): boolean {
    const turn = this.#running.get(chatKey);
    if (!turn) return false;
    turn.abort.abort(new Error(STOPPED_REASON));
    return true;
  }

  /** Stops every running reply (conversation switched, session ended). */
  stopAll(): void {
    for (const key of [...this.#running.keys()]) this.stop(key);
  }

  /** Resolves when the chat's running reply (if any) has been stored. */
  async settled(chatKey: string): Promise<void> {
    await this.#running.get(chatKey)?.done;
  }

  #chat(chatKey: string): Chat {
    const chat = this.deps.context.chats.get(chatKey);
    if (!chat) throw new HostError("not_found", `This session has no chat "${chatKey}".`);
    return chat;
  }

  /** Marks the chat as replying, or throws `busy` when it already is. */
  #reserve(chatKey: string): Turn {
    if (this.#running.has(chatKey)) {
      throw new HostError(
        "busy",
        "A reply is still being written in this chat; wait for it or stop it.",
        { retryable: true },
      );
    }
    const turn = new Turn(chatKey, this.deps);
    this.#running.set(chatKey, turn);
    return turn;
  }

  #release(turn: Turn): void {
    if (this.#running.get(turn.chatKey) === turn) this.#running.delete(turn.chatKey);
  }
}

/**
 * What a retry answers again: the person's message before the failed reply, and the history
 * before it.
 *
 * @param stored - the chat's messages, in order.
 * @throws {HostError} `not_found` or `conflict` when the reply cannot be retried.
 */
function retryTarget(
  stored: MessageRecord[],
  messageId: string,
): { person: MessageRecord; history: MessageRecord[] } {
  const failed = stored.find((message) => message.id === messageId);
  if (failed === undefined || failed.role !== "assistant") {
    throw new HostError(
      "not_found",
      "That reply is not in this chat any more; reload the conversation.",
    );
  }
  if (stored.at(-1)?.id !== failed.id || !RETRYABLE_STATUSES.has(failed.status)) {
    throw new HostError(
      "conflict",
      "Only the chat's last reply can be retried, and only when it failed or was stopped.",
    );
  }
  const person = stored.findLast((message) => message.role === "user" && message.seq < failed.seq);
  if (person === undefined) {
    throw new HostError(
      "conflict",
      "This reply answers no message of yours, so there is nothing to retry.",
    );
  }
  return { person, history: stored.filter((message) => message.seq < person.seq) };
}
