import {
  pageRpcCodes,
  type AttachReply,
  type CardDescriptor,
  type PagePermissionName,
} from "@mcp-chat-host/protocol";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { cardChatKey } from "../app-messages/card-chat-key";
import { routeAppMessage } from "../app-messages/app-message";
import { AppMessageLimits } from "../app-messages/app-message-limits";
import type { AppContentParams } from "../context/report-text";
import {
  assembleHookChain,
  isChecked,
  runAppCallChain,
  type OnAppCall,
} from "../gate/app-call-gate";
import type { ApprovalOutcome } from "../gate/approval-broker";
import { HostError } from "../host-error";
import { PAGE_RESOURCES_RATE_MESSAGE, pageResourcesKey } from "../server/rate-limit";
import type { HostSession } from "../session/host-session";
import type { SourceSpec } from "../session/session-sources";
import type { Source, SourceTool } from "../sources/source";
import { capToolResult } from "./capped-result";
import { grantedPermissions } from "./permission-grants";
import {
  isVisibleTo,
  toolDisplayTitle,
  toolHasView,
  toolResourceUri,
} from "../sources/tool-metadata";
import { readViewResource, type ViewResource } from "../sources/view-resource";
import type { CardRecord, JsonObject } from "../store/host-store";
import { newInstanceId, type LiveCard } from "./card-registry";
import { pageCallFailure } from "./source-failure";

/** Options of a card or pane shown by hand (`session.showCard`, `session.pane`). */
export interface ShowCardOptions {
  /** The tool that opens the app. Default: its first model-visible tool with a view, else its first model-visible tool. Required for remote sources. */
  tool?: string;
  /** The opening call's arguments (default `{}`). */
  arguments?: Record<string, unknown>;
  /** The card's title (default: the tool's title). */
  title?: string;
  /** Checks the tool calls of this card's page (before its chat's check, if any). */
  onAppCall?: OnAppCall | null;
}

const APP_GONE = "This app isn't available any more.";
const NOT_RUNNING = "This app is no longer running.";
const STALE_REPORT = "This page was replaced by a newer load of the app; its report is not used.";

function pageError(
  message: string,
  rpcCode: number,
  code: "refused" | "not_found" | "unavailable" | "conflict" = "refused",
) {
  return new HostError(code, message, { rpcCode });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The cards and panes of one session: opening them (by a model tool call or by hand), attaching
 * their pages (restoring saved cards without calling a tool), and answering what their pages ask
 * the host (seed-behaviours 1.4, 1.8, 1.9, 1.10).
 */
export class CardService {
  readonly #pages = new Map<string, Promise<ViewResource>>();
  readonly #panes = new Map<string, CardDescriptor>();
  /** Bounds on the messages cards submit as the person (one in flight per chat, a rate per card). */
  readonly #appMessages: AppMessageLimits;

  constructor(private readonly session: HostSession) {
    this.#appMessages = new AppMessageLimits({ now: () => session.services.now() });
  }

  /** A stored card record as the browser sees it. */
  descriptorOf(record: CardRecord): CardDescriptor {
    const descriptor: CardDescriptor = {
      instanceId: record.instanceId,
      conversationId: record.conversationId,
      chatId: record.chatId,
      kind: record.kind,
      source: record.source,
      tool: record.tool,
      arguments: record.arguments,
      result: record.result,
      title: record.title,
      checked: record.checked,
      createdAt: record.createdAt,
    };
    if (record.cancelled !== undefined) descriptor.cancelled = record.cancelled;
    if (record.messageId !== undefined) descriptor.messageId = record.messageId;
    if (record.closedAt !== undefined) descriptor.closed = true;
    // Arguments still being written live only in memory: a tab arriving meanwhile gets the
    // latest guess and the flag, so it waits for `card:input`.
    const live = this.session.cards.get(record.instanceId)?.descriptor;
    if (live?.inputStreaming === true) {
      descriptor.arguments = live.arguments;
      descriptor.inputStreaming = true;
    }
    return descriptor;
  }

  /** The session's open panes. */
  paneDescriptors(): CardDescriptor[] {
    return [...this.#panes.values()].filter((pane) => this.session.cards.get(pane.instanceId));
  }

  /**
   * Creates the card of a model tool call, before the call runs, and commits it before the browser
   * hears of it. The page gets `tool-input` at once and `tool-result` when the call returns.
   * With `inputStreaming`, the card opens as soon as the model starts writing the arguments: the
   * page gets `tool-input-partial`s ({@link inputPartial}) until {@link finishInput}.
   *
   * @returns the live card.
   * @throws store errors (the card is then neither live nor announced).
   */
  async openForToolCall(input: {
    chatKey: string;
    conversationId: string;
    messageId: string;
    source: string;
    tool: SourceTool;
    arguments: Record<string, unknown>;
    inputStreaming?: boolean;
    /** The model's tool call that opens the card, so the browser shows the card with its row. */
    toolCallId?: string;
  }): Promise<LiveCard> {
    const chat = this.session.chats.get(input.chatKey);
    const chain = assembleHookChain({ chat: chat?.host?.onAppCall ?? null, restored: false });
    const descriptor: CardDescriptor = {
      instanceId: newInstanceId(),
      conversationId: input.conversationId,
      chatId: input.chatKey,
      kind: "card",
      source: input.source,
      tool: input.tool.name,
      arguments: input.arguments,
      result: null,
      title: chat?.host?.title ?? toolDisplayTitle(input.tool),
      checked: isChecked(chain),
      messageId: input.messageId,
      createdAt: this.session.services.now(),
    };
    if (input.inputStreaming === true) descriptor.inputStreaming = true;
    if (input.toolCallId !== undefined) descriptor.toolCallId = input.toolCallId;
    // Warm the page cache: the browser will attach as soon as it hears of the card.
    void this.#warmPage(input.source, input.tool);
    await this.#save(descriptor);
    const card = this.#live(descriptor, chain, false);
    this.session.emit("card:opened", { card: descriptor });
    return card;
  }

  /**
   * The model wrote more of a streaming card's arguments: keeps the latest guess in memory (not
   * saved) and passes it on as `card:input-partial`. Ignored once the arguments are final.
   */
  inputPartial(card: LiveCard, args: Record<string, unknown>): void {
    if (card.descriptor.inputStreaming !== true || card.disposed) return;
    card.descriptor.arguments = args;
    this.session.emit("card:input-partial", {
      instanceId: card.descriptor.instanceId,
      arguments: args,
    });
  }

  /**
   * A streaming card's arguments are final (its call runs now): saves them and sends
   * `card:input`; no `card:input-partial` follows. Does nothing for a card that did not stream.
   *
   * @throws store errors.
   */
  async finishInput(card: LiveCard, args: Record<string, unknown>): Promise<void> {
    if (card.descriptor.inputStreaming !== true) return;
    delete card.descriptor.inputStreaming;
    card.descriptor.arguments = args;
    if (card.descriptor.conversationId !== null) await this.#save(card.descriptor);
    this.session.emit("card:input", { instanceId: card.descriptor.instanceId, arguments: args });
  }

  /** Records the opening call's result and passes it to the page. */
  async complete(card: LiveCard, result: CallToolResult): Promise<void> {
    card.descriptor.result = result as unknown as Record<string, unknown>;
    card.opening = null;
    if (card.descriptor.conversationId !== null) await this.#save(card.descriptor);
    this.session.emit("card:result", {
      instanceId: card.descriptor.instanceId,
      result: card.descriptor.result,
    });
  }

  /** Records why the opening call has no result; the page gets `tool-cancelled`. */
  async cancel(card: LiveCard, reason: string): Promise<void> {
    // Arguments that never became final stay as far as they got; the page hears no more of them.
    delete card.descriptor.inputStreaming;
    card.descriptor.cancelled = reason;
    card.opening = null;
    if (card.descriptor.conversationId !== null) {
      await this.#save(card.descriptor).catch((error: unknown) =>
        this.session.logger.warn({ err: error }, "could not save a cancelled card"),
      );
    }
    this.session.emit("card:cancelled", { instanceId: card.descriptor.instanceId, reason });
  }

  /**
   * Shows a card or pane by hand: the tool is called first, so the saved card carries its result
   * and a restored one never calls it (seed-behaviours 1.8, 1.11).
   */
  async showByHand(
    spec: SourceSpec,
    options: ShowCardOptions & { kind: "card" | "pane" },
  ): Promise<string> {
    const session = this.session;
    const key = session.sources.register(spec);
    const own = options.onAppCall ?? null;
    if (own !== null && typeof own !== "function") {
      throw new HostError("bad_request", "`onAppCall` must be a function or `null`.");
    }
    if (own) session.registerHook(key, own);
    const source = await session.sources.get(key);
    const tools = await source.tools();
    const tool = pickTool(source, tools, options.tool);
    const args = options.arguments ?? {};
    const result = capToolResult(
      await source.callTool(tool.name, args),
      session.services.toolResultLimit,
    );
    const chatKeys = [...session.chats.keys()];
    const owner = options.kind === "card" ? cardChatKey(null, chatKeys) : null;
    const chatHook = owner === null ? null : (session.chats.get(owner)?.host?.onAppCall ?? null);
    const chain = assembleHookChain({ own, chat: chatHook, restored: false });
    const conversation =
      options.kind === "card"
        ? await session.currentConversation(options.title ?? toolDisplayTitle(tool))
        : null;
    const descriptor: CardDescriptor = {
      instanceId: options.kind === "pane" ? newInstanceId(key) : newInstanceId(),
      conversationId: conversation?.id ?? null,
      chatId: null,
      kind: options.kind,
      source: key,
      tool: tool.name,
      arguments: args,
      result: result as unknown as Record<string, unknown>,
      title: options.title ?? toolDisplayTitle(tool),
      checked: isChecked(chain),
      createdAt: session.services.now(),
    };
    if (conversation) await this.#save(descriptor);
    this.#live(descriptor, chain, false);
    if (options.kind === "pane") this.#panes.set(descriptor.instanceId, descriptor);
    session.emit("card:opened", { card: descriptor });
    return descriptor.instanceId;
  }

  /**
   * Answers a page's `attach` (seed-behaviours 1.4): the page, the tool, the saved input and
   * result. A card not live in this session is restored from the shown conversation's saved
   * descriptor (1.8); no tool is called.
   *
   * @param permissions - the view permissions the person granted the card's source (the
   *   browser asks); only these of the declared ones reach the sandbox. Absent: none.
   * @throws {HostError} `unavailable` with the seed's texts.
   */
  async attach(
    instanceId: string,
    permissions?: readonly PagePermissionName[],
  ): Promise<AttachReply> {
    const session = this.session;
    const card = session.cards.get(instanceId) ?? (await this.#restore(instanceId));
    if (!card) throw new HostError("unavailable", APP_GONE);
    card.generation += 1;
    const generation = card.generation;
    let source: Source;
    let tools: SourceTool[];
    try {
      source = await session.sources.get(card.descriptor.source);
      tools = await source.tools();
    } catch (error) {
      throw new HostError("unavailable", `Couldn't reach the app's server: ${messageOf(error)}`, {
        retryable: true,
      });
    }
    const tool = tools.find((candidate) => candidate.name === card.descriptor.tool);
    const uri = tool ? toolResourceUri(tool) : undefined;
    if (!tool || uri === undefined) {
      if (card.restored) session.cards.dispose(instanceId);
      throw new HostError("unavailable", APP_GONE);
    }
    let page: ViewResource;
    try {
      page = await this.#page(source, uri);
    } catch (error) {
      throw new HostError("unavailable", `Couldn't load the app: ${messageOf(error)}`, {
        retryable: true,
      });
    }
    if (card.generation !== generation)
      throw new HostError("unavailable", "The app is opening again.");
    // Issue 9, item 7: only the permissions the person granted reach the sandbox's `allow`.
    const { permissions: declaredPermissions, ...otherMeta } = page.meta;
    const granted = grantedPermissions(
      declaredPermissions as Record<string, unknown> | undefined,
      permissions,
    );
    const sandboxMeta = granted === undefined ? otherMeta : { ...otherMeta, permissions: granted };
    const placement = await session.services.sandboxFor(source.key, sandboxMeta, session.pageHost);
    const appTools = tools
      .filter((candidate) => isVisibleTo(candidate, "app"))
      .map((candidate) => candidate.name);
    const pageInfo: AttachReply["page"] = {
      html: page.html,
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
      tool: toolInfo(tool),
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

  /**
   * A page's `tools/call` (seed-behaviours 1.9, 1.10): the card must be live in this session, the
   * tool on the card's own source and visible to apps, and the hook chain must allow it; only
   * then does the call reach the server. Every call is audited.
   *
   * @throws {HostError} with the page's JSON-RPC code and the seed's texts.
   */
  async callTool(
    instanceId: string,
    name: string,
    args: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const session = this.session;
    const card = session.cards.get(instanceId);
    if (!card) throw pageError(NOT_RUNNING, pageRpcCodes.invalidRequest, "not_found");
    const started = session.services.now();
    // Set when the gate asked the person; the call's audit row says how it was answered.
    let approval: ApprovalOutcome | undefined;
    const audit = (verdict: "allowed" | "refused" | "failed", reason?: string) =>
      this.#audit(card, name, verdict, started, reason, approval);
    const limited = session.services.takePageCall(`${session.user.id}\u0000${instanceId}`);
    if (limited !== null) {
      // A throttled call is a page call too; the audit shows the card being slowed down.
      audit("refused", limited);
      throw new HostError("rate_limited", limited, {
        rpcCode: pageRpcCodes.internalError,
        retryable: true,
      });
    }
    const source = await session.sources.get(card.descriptor.source).catch((error: unknown) => {
      throw pageError(messageOf(error), pageRpcCodes.internalError, "unavailable");
    });
    const tools = await source.tools().catch((error: unknown) => {
      throw pageError(messageOf(error), pageRpcCodes.internalError, "unavailable");
    });
    const tool = tools.find((candidate) => candidate.name === name);
    if (!tool || !isVisibleTo(tool, "app")) {
      const reason = `The app can't call the tool "${name}".`;
      audit("refused", reason);
      throw pageError(reason, pageRpcCodes.invalidParams);
    }
    const verdict = await runAppCallChain(
      card.chain,
      {
        name,
        arguments: args,
        tool: toolInfo(tool) as never,
        instanceId,
        kind: card.descriptor.kind,
        source: card.descriptor.source,
        chat:
          card.descriptor.chatId !== null && session.chats.has(card.descriptor.chatId)
            ? card.descriptor.chatId
            : card.descriptor.kind === "card"
              ? cardChatKey(null, [...session.chats.keys()])
              : null,
        title: card.descriptor.title,
        session: { id: session.id, user: { ...session.user } },
        ask: (question) =>
          session.broker.ask({
            conversationId: card.descriptor.conversationId,
            chatId: card.descriptor.chatId,
            instanceId,
            source: card.descriptor.source,
            tool: name,
            title: card.descriptor.title,
            arguments: args,
            annotations: tool.annotations,
            question: question ?? null,
            onOutcome: (outcome) => {
              approval = outcome;
            },
          }),
      },
      { warn: (message) => session.logger.warn({ card: instanceId, tool: name }, message) },
    );
    if (!verdict.allowed) {
      audit("refused", verdict.reason);
      throw pageError(verdict.reason, pageRpcCodes.invalidParams);
    }
    // The hooks may have taken a while (a question to the person); a card closed meanwhile no
    // longer speaks for anyone.
    if (card.disposed) {
      audit("refused", NOT_RUNNING);
      throw pageError(NOT_RUNNING, pageRpcCodes.invalidRequest, "not_found");
    }
    try {
      const result = capToolResult(
        await source.callTool(name, args),
        this.session.services.toolResultLimit,
      );
      audit(result.isError === true ? "failed" : "allowed");
      return result as unknown as Record<string, unknown>;
    } catch (error) {
      audit("failed", messageOf(error));
      throw pageCallFailure(error, source.key, source.closed, pageRpcCodes.internalError);
    }
  }

  /** A page's `resources/read`, `resources/list`, `resources/templates/list`: its own source only. */
  async resourceRequest(
    instanceId: string,
    request: { kind: "read"; uri: string } | { kind: "list" | "templates"; cursor?: string },
  ): Promise<Record<string, unknown>> {
    const card = this.session.cards.get(instanceId);
    if (!card) throw pageError(NOT_RUNNING, pageRpcCodes.invalidRequest, "not_found");
    // Resource requests have a budget per card beside its tool calls' (issue 9, item 12).
    const cardKey = `${this.session.user.id}\u0000${instanceId}`;
    if (this.session.services.takePageCall(pageResourcesKey(cardKey)) !== null) {
      throw new HostError("rate_limited", PAGE_RESOURCES_RATE_MESSAGE, {
        rpcCode: pageRpcCodes.internalError,
        retryable: true,
      });
    }
    try {
      const source = await this.session.sources.get(card.descriptor.source);
      const result =
        request.kind === "read"
          ? await source.readResource(request.uri)
          : request.kind === "list"
            ? await source.listResources(request.cursor)
            : await source.listResourceTemplates(request.cursor);
      return result as unknown as Record<string, unknown>;
    } catch (error) {
      throw pageError(messageOf(error), pageRpcCodes.internalError, "unavailable");
    }
  }

  /**
   * A page's `ui/update-model-context`: replaces the card's report (never stored).
   *
   * @param generation - the generation the page attached with; absent (an older browser) counts
   *   as the newest.
   * @throws {HostError} `not_found` for a card not running, `conflict` for an earlier load's page.
   */
  updateContext(
    instanceId: string,
    params: AppContentParams,
    generation?: number,
  ): { reportedAt: number } {
    const card = this.session.cards.get(instanceId);
    if (!card) throw pageError(NOT_RUNNING, pageRpcCodes.invalidRequest, "not_found");
    if (!isCurrentPage(card, generation)) {
      throw pageError(STALE_REPORT, pageRpcCodes.invalidRequest, "conflict");
    }
    card.report = params;
    card.reportedAt = this.session.services.now();
    return { reportedAt: card.reportedAt };
  }

  /**
   * A page's `ui/message` (seed-behaviours 1.6): composed, submitted or dropped. A submitted
   * message is sent as the person's, marked with the app that wrote it; it is refused while its
   * chat is answering and beyond the card's rate (see `AppMessageLimits`).
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
    const session = this.session;
    const card = session.cards.get(instanceId);
    if (!card) throw pageError(NOT_RUNNING, pageRpcCodes.invalidRequest, "not_found");
    const route = routeAppMessage({
      mode: (chatKey) => {
        const chat = session.chats.get(chatKey);
        return chat?.host ? chat.host.messages : null;
      },
      card: {
        instanceId,
        kind: card.descriptor.kind,
        owner: card.descriptor.chatId,
        disposed: card.disposed,
      },
      chats: [...session.chats.keys()],
      params,
      fromCurrentPage: isCurrentPage(card, generation),
    });
    if (route.action === "compose") {
      session.emit("composer:fill", { chatId: route.chatKey, text: route.text, instanceId });
    } else if (route.action === "submit") {
      // Checked and reserved with no await in between: `send` reserves the chat synchronously.
      const answering = session.turnService.runningChats().includes(route.chatKey);
      const allowance = this.#appMessages.take(instanceId, answering);
      if (!allowance.ok) {
        session.logger.info(
          { card: instanceId, chat: route.chatKey, code: allowance.code },
          allowance.reason,
        );
        throw new HostError(allowance.code, allowance.reason, { retryable: true });
      }
      await session.turnService.send(route.chatKey, route.text, {
        clientId: null,
        fromApp: {
          instanceId,
          source: card.descriptor.source,
          title: card.descriptor.title,
        },
      });
    } else {
      // A chat without a chat host is the session program's mistake: say so where it looks.
      const level = route.code === "no-host" ? "warn" : "info";
      session.logger[level]({ card: instanceId, code: route.code }, route.reason);
      return { action: "drop", reason: route.reason };
    }
    return { action: route.action };
  }

  /** A page was torn down (closed by the person, conversation switched, unmounted). */
  async teardown(instanceId: string, reason: string): Promise<void> {
    const session = this.session;
    const card = session.cards.dispose(instanceId);
    session.broker.cancelCard(instanceId);
    this.#panes.delete(instanceId);
    this.#appMessages.forget(instanceId);
    if (card && reason === "closed" && card.descriptor.conversationId !== null) {
      await session.services.store.closeCard(card.descriptor.conversationId, instanceId);
    }
  }

  async #restore(instanceId: string): Promise<LiveCard | undefined> {
    const session = this.session;
    const conversation = session.conversation;
    if (!conversation) return undefined;
    const record = await session.services.store.getCard(conversation.id, instanceId);
    if (!record || record.closedAt !== undefined || record.kind !== "card") return undefined;
    if (!session.sources.has(record.source)) return undefined;
    const owner = record.chatId;
    const chatHook = owner !== null ? (session.chats.get(owner)?.host?.onAppCall ?? null) : null;
    const chain = assembleHookChain({
      chat: chatHook,
      restored: true,
      sessionHooksForSource: [...(session.hooksBySource.get(record.source) ?? [])],
      checked: record.checked,
    });
    return this.#live(this.descriptorOf(record), chain, true);
  }

  #live(descriptor: CardDescriptor, chain: readonly OnAppCall[], restored: boolean): LiveCard {
    return this.session.cards.add({
      descriptor,
      chain,
      restored,
      report: null,
      reportedAt: null,
      disposed: false,
      generation: 0,
      opening: null,
    });
  }

  async #save(descriptor: CardDescriptor): Promise<void> {
    if (descriptor.conversationId === null) return;
    await this.session.services.store.saveCard({
      instanceId: descriptor.instanceId,
      conversationId: descriptor.conversationId,
      chatId: descriptor.chatId,
      kind: descriptor.kind,
      source: descriptor.source,
      tool: descriptor.tool,
      arguments: descriptor.arguments as JsonObject,
      result: descriptor.result as JsonObject | null,
      title: descriptor.title,
      checked: descriptor.checked,
      createdAt: descriptor.createdAt,
      ...(descriptor.cancelled === undefined ? {} : { cancelled: descriptor.cancelled }),
      ...(descriptor.messageId === undefined ? {} : { messageId: descriptor.messageId }),
    });
  }

  #page(source: Source, uri: string): Promise<ViewResource> {
    const key = `${source.key}\u0000${uri}`;
    let page = this.#pages.get(key);
    if (!page) {
      page = readViewResource(source, uri);
      this.#pages.set(key, page);
      // A failed read is not cached (seed-behaviours 1.4).
      page.catch(() => this.#pages.delete(key));
    }
    return page;
  }

  async #warmPage(sourceKey: string, tool: SourceTool): Promise<void> {
    const uri = toolResourceUri(tool);
    if (uri === undefined) return;
    try {
      await this.#page(await this.session.sources.get(sourceKey), uri);
    } catch {
      // Reported when the page attaches.
    }
  }

  /** Queues the audit of a page call (written in batches; see `AuditLog`). */
  #audit(
    card: LiveCard,
    tool: string,
    verdict: "allowed" | "refused" | "failed",
    started: number,
    reason?: string,
    approval?: ApprovalOutcome,
  ): void {
    const session = this.session;
    session.services.audit.record({
      userId: session.user.id,
      sessionId: session.id,
      conversationId: card.descriptor.conversationId,
      instanceId: card.descriptor.instanceId,
      source: card.descriptor.source,
      tool,
      verdict,
      durationMs: Math.max(0, session.services.now() - started),
      ...(reason === undefined ? {} : { reason }),
      ...(approval === undefined ? {} : { approval: { ...approval } }),
    });
  }
}

/**
 * Whether a page request comes from the card's newest load (seed-behaviours 1.6): its generation
 * is the card's, or it named none (a browser older than the generation check).
 */
function isCurrentPage(card: LiveCard, generation: number | undefined): boolean {
  return generation === undefined || generation === card.generation;
}

function pickTool(source: Source, tools: SourceTool[], name: string | undefined): SourceTool {
  if (name !== undefined) {
    const named = tools.find((tool) => tool.name === name);
    if (!named) throw new HostError("bad_request", `${source.key} has no tool named "${name}".`);
    return named;
  }
  if (source.kind === "connection")
    throw new HostError("bad_request", "Name the `tool` that opens the app.");
  const visible = tools.filter((tool) => isVisibleTo(tool, "model"));
  const chosen = visible.find((tool) => toolHasView(tool)) ?? visible[0];
  if (!chosen)
    throw new HostError("bad_request", `${source.key} has no tools for the model to call.`);
  return chosen;
}

function toolInfo(tool: SourceTool): AttachReply["tool"] {
  const info: AttachReply["tool"] = {
    name: tool.name,
    inputSchema: tool.inputSchema as Record<string, unknown>,
  };
  if (tool.title !== undefined) info.title = tool.title;
  if (tool.description !== undefined) info.description = tool.description;
  if (tool.annotations !== undefined) info.annotations = tool.annotations;
  if (tool.meta !== undefined) info._meta = tool.meta;
  return info;
}
