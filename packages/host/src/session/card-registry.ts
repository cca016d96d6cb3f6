import type { CardDescriptor } from "@mcp-chat-host/protocol";
import { randomUUID } from "node:crypto";
import type { ContextCard } from "../context/context-relay";
import type { AppContentParams } from "../context/report-text";
import type { OnAppCall } from "../gate/app-call-gate";

/** A card or pane that is live in a session: its descriptor plus what only the server knows. */
export interface LiveCard {
  /** The descriptor the browser knows (and the store keeps, for a card of a conversation). */
  descriptor: CardDescriptor;
  /** The hooks its page calls pass, in order (own, chat's, and for restored cards the session's). */
  chain: readonly OnAppCall[];
  /** True when recreated from a saved descriptor (no tool was called). */
  restored: boolean;
  /** Its latest model context report, or null. Never stored. */
  report: AppContentParams | null;
  /** When the latest report arrived. */
  reportedAt: number | null;
  /** True once closed: out of the context and of routing. */
  disposed: boolean;
  /** Raised by every attach; a page load is answered only while it is the newest. */
  generation: number;
  /** Aborts the opening call when the person stops the turn. */
  opening: AbortController | null;
}

/**
 * A card instance id (`host-<unique>`); panes get `host-<sanitised source>-<unique>`.
 *
 * @param source - for panes, the source key.
 */
export function newInstanceId(source?: string): string {
  const unique = randomUUID().replaceAll("-", "").slice(0, 16);
  return source === undefined ? `host-${unique}` : `host-${sanitizeDomId(source)}-${unique}`;
}

/**
 * Makes a string safe as a DOM id: every character outside `[A-Za-z0-9_-]` becomes `-`, and an
 * id starting with a digit gets the prefix `host-`.
 */
function sanitizeDomId(value: string): string {
  const cleaned = value.replace(/[^A-Za-z0-9_-]/g, "-");
  return /^[0-9]/.test(cleaned) ? `host-${cleaned}` : cleaned;
}

/** A card made live in the session: never reported, attached or disposed yet. */
export function newLiveCard(
  descriptor: CardDescriptor,
  chain: readonly OnAppCall[],
  restored: boolean,
): LiveCard {
  return {
    descriptor,
    chain,
    restored,
    report: null,
    reportedAt: null,
    disposed: false,
    generation: 0,
    opening: null,
  };
}

/**
 * Whether a page request comes from the card's newest load: its generation is the card's, or it
 * named none (a browser older than the generation check).
 */
export function isCurrentPage(card: LiveCard, generation: number | undefined): boolean {
  return generation === undefined || generation === card.generation;
}

/** The live cards and panes of one session, by instance id. */
export class CardRegistry {
  readonly #cards = new Map<string, LiveCard>();

  /** Adds a live card; replaces an older record with the same id. */
  add(card: LiveCard): LiveCard {
    this.#cards.set(card.descriptor.instanceId, card);
    return card;
  }

  /** The live card, or undefined (also for a disposed one). */
  get(instanceId: string): LiveCard | undefined {
    const card = this.#cards.get(instanceId);
    return card && !card.disposed ? card : undefined;
  }

  /** Every live card, in creation order. */
  all(): LiveCard[] {
    return [...this.#cards.values()].filter((card) => !card.disposed);
  }

  /** Marks a card closed and forgets it. */
  dispose(instanceId: string): LiveCard | undefined {
    const card = this.#cards.get(instanceId);
    if (!card) return undefined;
    card.disposed = true;
    card.opening?.abort(new Error("The card was closed."));
    this.#cards.delete(instanceId);
    return card;
  }

  /**
   * Closes every card of a conversation (it was closed in this session).
   *
   * @returns the instance ids of the cards closed.
   */
  disposeConversation(conversationId: string): string[] {
    const closed: string[] = [];
    for (const card of [...this.#cards.values()]) {
      if (card.descriptor.conversationId === conversationId) {
        this.dispose(card.descriptor.instanceId);
        closed.push(card.descriptor.instanceId);
      }
    }
    return closed;
  }

  /** Closes everything (the session ended). */
  disposeAll(): void {
    for (const id of [...this.#cards.keys()]) this.dispose(id);
  }

  /**
   * What the context relay needs of every live card.
   *
   * @param ownerOf - the chat a card belongs to: its saved owner, else the session's only chat.
   */
  contextCards(ownerOf: (owner: string | null) => string | null): ContextCard[] {
    return [...this.#cards.values()].map((card) => ({
      instanceId: card.descriptor.instanceId,
      title: card.descriptor.title,
      tool: card.descriptor.tool,
      kind: card.descriptor.kind,
      ownerChat: card.descriptor.kind === "card" ? ownerOf(card.descriptor.chatId) : null,
      disposed: card.disposed,
      report: card.report,
      reportedAt: card.reportedAt,
    }));
  }
}
