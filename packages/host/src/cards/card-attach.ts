import type { AttachReply, PagePermissionName } from "@mcp-chat-host/protocol";
import { toWireError } from "../errors/to-wire-error";
import { assembleHookChain } from "../gate/app-call-gate";
import { HostError } from "../host-error";
import type { SessionContext } from "../session/session-context";
import type { Source, SourceTool } from "../sources/source";
import { isVisibleTo, toolResourceUri } from "../sources/tool-metadata";
import type { ConversationRecord } from "../store/host-store";
import { cardDescriptorOf } from "./card-descriptor";
import { toolDefinition } from "../sources/tool-metadata";
import { newLiveCard, type LiveCard } from "../session/card-registry";
import { grantedPermissions } from "./permission-grants";
import type { CachedView, ViewCache } from "./view-cache";

const APP_GONE = "This app isn't available any more.";

/**
 * The error of an attach whose source or view failed. A local error the wire mapping knows says
 * what happened (`toWireError` gives its sentence), after what the card could not do; the card
 * may load on a later attach. Anything else is thrown on unchanged: the mapping makes it
 * `internal` and the socket shell logs it, so no unexpected message reaches the browser.
 */
function attachFailure(error: unknown, what: string): unknown {
  const wire = toWireError(error);
  if (wire.code === "internal") return error;
  return new HostError("unavailable", `${what}: ${wire.message}`, { retryable: true });
}

/** What attaching needs of the session's conversations. */
export interface AttachConversations {
  /** The conversation shown, or null. */
  shown(): ConversationRecord | null;
}

/**
 * Answers a page's `attach`: the view, the tool, the saved input and result. A card that is not
 * live in the session is restored from the shown conversation's saved descriptor, without calling
 * any tool; its page calls then pass every hook registered for its source.
 */
export class CardAttach {
  constructor(
    private readonly context: SessionContext,
    private readonly conversations: AttachConversations,
    private readonly views: ViewCache,
  ) {}

  /**
   * Attaches a page to its card. Each attach starts a new load of the card (its generation):
   * requests from an earlier load are then refused or dropped.
   *
   * @param permissions - the view permissions the person granted the card's source (the
   *   browser asks); only these of the declared ones reach the sandbox. Absent: none.
   * @param views - hashes of the source's pages the browser holds: when the card's page is one
   *   of them, the reply carries its hash without its HTML.
   * @throws {HostError} `unavailable` when the card, its source, its tool or its view is gone.
   */
  async attach(
    instanceId: string,
    permissions?: readonly PagePermissionName[],
    views?: readonly string[],
  ): Promise<AttachReply> {
    const context = this.context;
    const card = context.cards.get(instanceId) ?? (await this.#restore(instanceId));
    if (!card) throw new HostError("unavailable", APP_GONE);
    card.generation += 1;
    const generation = card.generation;
    let source: Source;
    let tools: SourceTool[];
    try {
      source = await context.sources.get(card.descriptor.source);
      tools = await source.tools();
    } catch (error) {
      throw attachFailure(error, "Couldn't reach the app's server");
    }
    const tool = tools.find((candidate) => candidate.name === card.descriptor.tool);
    const uri = tool ? toolResourceUri(tool) : undefined;
    if (!tool || uri === undefined) {
      if (card.restored) context.cards.dispose(instanceId);
      throw new HostError("unavailable", APP_GONE);
    }
    let page: CachedView;
    try {
      page = await this.views.page(source, uri);
    } catch (error) {
      throw attachFailure(error, "Couldn't load the app");
    }
    if (card.generation !== generation)
      throw new HostError("unavailable", "The app is opening again.");
    // Only the permissions the person granted reach the sandbox's `allow`.
    const { permissions: declaredPermissions, ...otherMeta } = page.meta;
    const granted = grantedPermissions(
      declaredPermissions as Record<string, unknown> | undefined,
      permissions,
    );
    const sandboxMeta = granted === undefined ? otherMeta : { ...otherMeta, permissions: granted };
    const placement = await context.services.sandboxFor(source.key, sandboxMeta, context.pageHost);
    const appTools = tools
      .filter((candidate) => isVisibleTo(candidate, "app"))
      .map((candidate) => candidate.name);
    // A page the browser holds travels as its hash only.
    const pageInfo: AttachReply["page"] = {
      ...(views?.includes(page.hash) === true ? {} : { html: page.html }),
      viewHash: page.hash,
      sandboxOrigin: placement.origin,
      proxyUrl: placement.proxyUrl,
    };
    if (page.meta.csp) pageInfo.csp = page.meta.csp as Record<string, unknown>;
    if (page.meta.permissions)
      pageInfo.permissions = page.meta.permissions as Record<string, unknown>;
    if (page.meta.prefersBorder !== undefined) pageInfo.prefersBorder = page.meta.prefersBorder;
    return {
      instanceId,
      title: card.descriptor.title,
      source: card.descriptor.source,
      page: pageInfo,
      tool: toolDefinition(tool),
      toolInput: card.descriptor.arguments,
      ...(card.descriptor.inputStreaming === true ? { inputStreaming: true } : {}),
      toolResult: card.descriptor.result,
      cancelled: card.descriptor.result === null ? (card.descriptor.cancelled ?? null) : null,
      appTools,
      restored: card.restored,
      reportedAt: card.reportedAt,
      generation,
    };
  }

  /** Makes a saved card of the shown conversation live again (an open card whose source is known). */
  async #restore(instanceId: string): Promise<LiveCard | undefined> {
    const context = this.context;
    const conversation = this.conversations.shown();
    if (!conversation) return undefined;
    const record = await context.services.store.getCard(conversation.id, instanceId);
    if (!record || record.closedAt !== undefined || record.kind !== "card") return undefined;
    if (!context.sources.has(record.source)) return undefined;
    const owner = record.chatId;
    const chatHook = owner !== null ? (context.chats.get(owner)?.host?.onAppCall ?? null) : null;
    const chain = assembleHookChain({
      chat: chatHook,
      restored: true,
      sessionHooksForSource: context.hooks.of(record.source),
      checked: record.checked,
    });
    const descriptor = cardDescriptorOf(record, context.cards.get(record.instanceId));
    return context.cards.add(newLiveCard(descriptor, chain, true));
  }
}
