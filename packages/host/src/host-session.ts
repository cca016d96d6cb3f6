import type { ServerEvents } from "@mcp-chat-host/protocol";
import { AppMessageRouter } from "./app-messages/app-message-router";
import { CardAttach } from "./cards/card-attach";
import { CardRegistry } from "./session/card-registry";
import { CardService } from "./cards/card-service";
import { ViewCache } from "./cards/view-cache";
import { Chat, chatOptionsWithDefaults, type ChatOptions } from "./session/chat";
import { chatAppContext } from "./chat/chat-app-context";
import { attachChatHost } from "./chat/chat-host-attach";
import { chatKey } from "./chat/chat-keys";
import { ChatToolLists } from "./chat/chat-tools";
import { ComposerOffers } from "./composer/composer-offers";
import { ConversationService } from "./conversations/conversation-service";
import { ApprovalBroker } from "./gate/approval-broker";
import { ElicitationBroker } from "./elicitation/elicitation-broker";
import { DEFAULT_ELICITATION_TIMEOUT_SECONDS } from "./elicitation/elicitation-timeout";
import { PageCallGate } from "./page-calls/page-call-gate";
import { SourceHooks } from "./session/source-hooks";
import { TurnService } from "./turns/turn-service";
import { PersonServers } from "./servers/person-servers";
import type { ShowCardOptions, Session } from "./session/session";
import type { SessionContext, SessionEmitter, SessionUser } from "./session/session-context";
import type { SessionServices } from "./session/session-services";
import { SessionSources, type SourceSpec } from "./session/session-sources";

/** Most notices held for a tab that is not connected; older ones give way. */
const MAX_HELD_NOTICES = 20;

/**
 * One signed-in browser tab: builds the session's state and services, wires each service to the
 * ports the others give it, and ends them all. It holds no behaviour of its own; the socket's
 * handlers call the services directly.
 */
export class HostSession implements Session {
  /** @internal the state every service shares. */
  readonly context: SessionContext;
  /** @internal which conversation is shown, and the person's conversations. */
  readonly conversations: ConversationService;
  /** @internal the life of the cards and panes. */
  readonly cardService: CardService;
  /** @internal a page's attach (restoring saved cards). */
  readonly attach: CardAttach;
  /** @internal the checks and audit of a page's requests. */
  readonly pageCalls: PageCallGate;
  /** @internal a page's `ui/message`. */
  readonly appMessages: AppMessageRouter;
  /** @internal the chats' replies. */
  readonly turnService: TurnService;
  /** @internal the model tools of each chat. */
  readonly tools: ChatToolLists;
  /** @internal the person's MCP servers, their states and sign-ins. */
  readonly servers: PersonServers;
  /** @internal the prompts and resources the chats' servers offer the composer. */
  readonly composer: ComposerOffers;
  readonly #ready: Promise<void>[] = [];
  readonly #endListeners: (() => void | Promise<void>)[] = [];
  #emitter: SessionEmitter | null = null;
  // Notices told while no tab was connected (a source that failed as the session started): the
  // snapshot a tab reads does not carry them, so they wait for the next connect.
  readonly #heldNotices: ServerEvents["notice"][] = [];
  #ended = false;

  /** @internal made by the server for each signed-in tab. */
  constructor(
    readonly id: string,
    readonly user: SessionUser,
    services: SessionServices,
  ) {
    const logger = services.logger.child({ session: id, user: user.id });
    const emit: SessionEmitter = (event, payload) => {
      if (this.#emitter !== null) this.#emitter(event, payload);
      else if (event === "notice") this.#holdNotice(payload as ServerEvents["notice"]);
    };
    const broker = new ApprovalBroker({
      onRequest: (request) => {
        services.metrics.approvalAsked();
        this.context.emit("approval:request", request);
      },
      onSettle: (approvalId, settlement, decision) => {
        services.metrics.approvalEnded(decision ?? settlement);
        this.context.emit("approval:settled", { approvalId });
      },
      memory: {
        listApprovals: (conversationId) => services.store.listApprovals(conversationId),
        remember: async (record) => {
          await services.store.rememberApproval(record);
        },
      },
      warn: (message) => logger.warn(message),
      now: services.now,
    });
    const elicitations = new ElicitationBroker({
      onRequest: (request) => this.context.emit("elicitation:request", request),
      onSettle: (elicitationId, outcome) =>
        this.context.emit("elicitation:settled", { elicitationId, outcome }),
      notify: (message) => this.context.emit("notice", { level: "warning", message }),
      warn: (details, message) => logger.warn(details, message),
      timeoutMs: services.elicitationTimeoutMs ?? DEFAULT_ELICITATION_TIMEOUT_SECONDS * 1_000,
      now: services.now,
    });
    this.context = {
      id,
      user,
      logger,
      services,
      chats: new Map(),
      sources: new SessionSources(services.configured, services.processSources, user.id),
      cards: new CardRegistry(),
      broker,
      elicitations,
      hooks: new SourceHooks(),
      lastContext: new Map(),
      pageHost: undefined,
      emit,
    };
    const context = this.context;
    this.tools = new ChatToolLists({
      source: (key) => context.sources.get(key),
      warn: (details, message) => context.logger.warn(details, message),
      announce: (event) => context.emit("chat:tools", event),
      notify: (message) => context.emit("notice", { level: "warning", message }),
    });
    this.servers = new PersonServers(context, this.tools, services.serverSignIn);
    this.composer = new ComposerOffers({
      chat: (key) => context.chats.get(key),
      source: (key) => context.sources.get(key),
      warn: (details, message) => context.logger.warn(details, message),
    });
    const views = new ViewCache();
    this.conversations = new ConversationService(context, {
      ready: () => this.ready(),
      message: (record) => this.turnService.withLiveText(record),
      card: (record) => this.cardService.descriptorOf(record),
      panes: () => this.cardService.paneDescriptors(),
      runningChats: () => this.turnService.runningChats(),
    });
    this.cardService = new CardService(context, this.conversations, views);
    this.attach = new CardAttach(context, this.conversations, views);
    this.pageCalls = new PageCallGate(context);
    this.turnService = new TurnService(
      { context, tools: this.tools, cards: this.cardService },
      this.conversations,
      this.composer,
    );
    this.appMessages = new AppMessageRouter(context, {
      answering: (chatKeyValue) => this.turnService.runningChats().includes(chatKeyValue),
      submit: (chatKeyValue, text, fromApp) =>
        this.turnService.send(chatKeyValue, text, { clientId: null, fromApp }),
    });
    this.cardService.onTeardown((instanceId) => this.appMessages.forget(instanceId));
    this.conversations.onLeave((conversationId) => {
      this.turnService.stopAll();
      this.cardService.closeConversation(conversationId);
    });
  }

  chat(options: ChatOptions = {}): Chat {
    const { chats } = this.context;
    const key = chatKey([...chats.keys()], options.id);
    const chat = new Chat(
      key,
      chatOptionsWithDefaults(key, options),
      this.id,
      (target, sources, hostOptions) =>
        attachChatHost(
          this.context,
          this.tools,
          (listed) => this.#ready.push(listed),
          target,
          sources,
          hostOptions,
        ),
    );
    chats.set(key, chat);
    return chat;
  }

  async pane(source: SourceSpec, options: ShowCardOptions = {}): Promise<string> {
    return this.cardService.showByHand(source, { ...options, kind: "pane" });
  }

  async showCard(source: SourceSpec, options: ShowCardOptions = {}): Promise<string> {
    return this.cardService.showByHand(source, { ...options, kind: "card" });
  }

  onEnd(listener: () => void | Promise<void>): void {
    this.#endListeners.push(listener);
  }

  contextFor(chatKeyValue: string): string | null {
    const { cards, chats } = this.context;
    return chatAppContext(cards, [...chats.keys()], chatKeyValue);
  }

  /** @internal resolves when every chat host has listed its tools. */
  async ready(): Promise<void> {
    await Promise.all(this.#ready);
  }

  /** @internal the `Host` the tab's page came from (its sandboxes stay on the same site). */
  get pageHost(): string | undefined {
    return this.context.pageHost;
  }

  set pageHost(value: string | undefined) {
    this.context.pageHost = value;
  }

  /** @internal connects (or reconnects) the tab's socket: `context.emit` sends through it. */
  connect(emitter: SessionEmitter): void {
    this.#emitter = emitter;
    for (const notice of this.#heldNotices.splice(0)) emitter("notice", notice);
  }

  #holdNotice(notice: ServerEvents["notice"]): void {
    this.#heldNotices.push(notice);
    if (this.#heldNotices.length > MAX_HELD_NOTICES) this.#heldNotices.shift();
  }

  /** @internal the tab's socket went away; the session lives on for a grace period. */
  disconnect(emitter: SessionEmitter): void {
    if (this.#emitter === emitter) this.#emitter = null;
  }

  /** @internal true once ended. */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * @internal ends the session: stops turns, refuses waiting approvals, withdraws the servers'
   * questions, closes sources.
   */
  async end(): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    this.turnService.stopAll();
    this.context.broker.close();
    this.context.elicitations.close();
    this.context.cards.disposeAll();
    for (const listener of this.#endListeners) {
      try {
        await listener();
      } catch (error) {
        this.context.logger.warn({ err: error }, "a session end listener failed");
      }
    }
    await this.context.sources.closeAll();
    await this.servers.connectors.close();
  }
}

export type { SessionEmitter, SessionUser } from "./session/session-context";
