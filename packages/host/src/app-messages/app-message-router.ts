import { isCurrentPage } from "../session/card-registry";
import { NOT_RUNNING, pageError } from "../page-calls/page-errors";
import { takePageRequest } from "../page-calls/take-page-request";
import type { AppContentParams } from "../context/report-text";
import { HostError } from "../host-error";
import type { SessionContext } from "../session/session-context";
import type { MessageFromApp } from "../store/host-store";
import { routeAppMessage } from "./app-message";
import { AppMessageLimits } from "./app-message-limits";

/** What the router needs of the session's turns to send a message as the person. */
export interface AppMessageSubmitter {
  /** Whether the chat is writing a reply now. */
  answering(chatKey: string): boolean;
  /**
   * Sends the text as the person's message, marked with the app that wrote it. It must reserve
   * the chat before its first await, so that a check of {@link answering} stays true.
   */
  submit(chatKey: string, text: string, fromApp: MessageFromApp): Promise<unknown>;
}

/**
 * Routes a card's `ui/message`: composed into its chat's input box, submitted as the person's
 * message, or dropped, by the chat's mode. A submitted message is refused while its chat is
 * answering and beyond the card's rate (see `AppMessageLimits`).
 */
export class AppMessageRouter {
  /** Bounds on the messages cards submit as the person (one in flight per chat, a rate per card). */
  readonly #limits: AppMessageLimits;

  constructor(
    private readonly context: SessionContext,
    private readonly turns: AppMessageSubmitter,
  ) {
    this.#limits = new AppMessageLimits({ now: () => context.services.now() });
  }

  /**
   * A page's `ui/message`.
   *
   * @param generation - the generation the page attached with; an earlier load's message is
   *   dropped; absent (an older browser) counts as the newest.
   * @throws {HostError} `not_found` for a card not running; `busy` or `rate_limited` for a
   *   submitted message refused by the limits.
   */
  async postMessage(
    instanceId: string,
    params: AppContentParams,
    generation?: number,
  ): Promise<{ action: "compose" | "submit" | "drop"; reason?: string }> {
    const context = this.context;
    const card = context.cards.get(instanceId);
    if (!card) throw pageError(NOT_RUNNING, "invalidRequest", "not_found");
    const refusal = takePageRequest(context, card, "messages");
    if (refusal !== undefined) throw refusal;
    const route = routeAppMessage({
      mode: (chatKey) => {
        const chat = context.chats.get(chatKey);
        return chat?.host ? chat.host.messages : null;
      },
      card: {
        instanceId,
        kind: card.descriptor.kind,
        owner: card.descriptor.chatId,
        disposed: card.disposed,
      },
      chats: [...context.chats.keys()],
      params,
      fromCurrentPage: isCurrentPage(card, generation),
    });
    if (route.action === "compose") {
      context.emit("composer:fill", { chatId: route.chatKey, text: route.text, instanceId });
    } else if (route.action === "submit") {
      // Checked and reserved with no await in between: `submit` reserves the chat synchronously.
      const allowance = this.#limits.take(instanceId, this.turns.answering(route.chatKey));
      if (!allowance.ok) {
        context.logger.info(
          { card: instanceId, chat: route.chatKey, code: allowance.code },
          allowance.reason,
        );
        throw new HostError(allowance.code, allowance.reason, { retryable: true });
      }
      await this.turns.submit(route.chatKey, route.text, {
        instanceId,
        source: card.descriptor.source,
        title: card.descriptor.title,
      });
    } else {
      // A chat without a chat host is the session program's mistake: say so where it looks.
      const level = route.code === "no-host" ? "warn" : "info";
      context.logger[level]({ card: instanceId, code: route.code }, route.reason);
      return { action: "drop", reason: route.reason };
    }
    return { action: route.action };
  }

  /** Forgets a card's budget (it was torn down). */
  forget(instanceId: string): void {
    this.#limits.forget(instanceId);
  }
}
