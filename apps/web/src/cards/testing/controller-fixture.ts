// Shared set-up of the card controller's tests: a real socket.io server on 127.0.0.1 and the
// page's real client, whose server events reach the page's store as in the page
// (bindServerEvents), the proxy stand-in with a real ext-apps `App` as the view, and a card
// controller wired to them. Only tests import this file.
import type { AttachReply, CardDescriptor, ReplyChunk } from "@mcp-chat-host/protocol";
import { App } from "@modelcontextprotocol/ext-apps";
import type { McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";
import { afterEach, beforeEach, expect, vi, type Mock } from "vitest";
import type { CardResume } from "../card-controller-options";
import { CardController } from "../card-controller";
import { bindServerEvents } from "../../socket/bind-server-events";
import { requestValue } from "../../socket/request";
import { cardViewAccess, useHostStore } from "../../state/host-store";
import { chatMessage } from "../../test-support/records";
import { resetStores } from "../../test-support/reset-stores";
import { showMessages } from "../../test-support/store-state";
import type { TimerFunctions } from "../teardown-with-timeout";
import { startCardSocketServer, type CardSocketServer } from "./card-socket-server";
import { memoryGrants, type MemoryGrants } from "./memory-grants";
import { attributeSet, createViewHarness, type ViewHarness } from "./view-harness";

const sandboxOrigin = "http://127.0.0.1:45999";

export function descriptor(overrides: Partial<CardDescriptor> = {}): CardDescriptor {
  return {
    instanceId: "card-1",
    conversationId: "conv-1",
    chatId: "chat-1",
    kind: "card",
    source: "clock",
    tool: "show-time",
    arguments: { zone: "UTC" },
    result: null,
    title: "Clock",
    checked: false,
    createdAt: 1,
    ...overrides,
  };
}

export function attachReply(overrides: Partial<AttachReply> = {}): AttachReply {
  return {
    instanceId: "card-1",
    title: "Clock",
    source: "clock",
    page: {
      html: "<!doctype html><p>clock</p>",
      csp: { connectDomains: ["https://api.example.com"] },
      permissions: { clipboardWrite: {} },
      sandboxOrigin,
      proxyUrl: `${sandboxOrigin}/proxy?csp=abc`,
    },
    tool: { name: "show-time", inputSchema: { type: "object" } },
    toolInput: { zone: "UTC" },
    toolResult: { content: [{ type: "text", text: "12:00" }] },
    cancelled: null,
    appTools: ["get-time"],
    restored: false,
    reportedAt: null,
    ...overrides,
  };
}

/** A view that records what it receives. */
export function recordingView(
  modes: Array<"inline" | "fullscreen" | "pip"> = ["inline", "fullscreen"],
) {
  const timeline: string[] = [];
  const contextChanges: McpUiHostContext[] = [];
  const app = new App(
    { name: "clock-view", version: "1.0.0" },
    { availableDisplayModes: modes },
    { autoResize: false },
  );
  let resolveInput: (value: unknown) => void = () => undefined;
  let resolveFinal: (value: unknown) => void = () => undefined;
  const input = new Promise((resolve) => (resolveInput = resolve));
  const final = new Promise((resolve) => (resolveFinal = resolve));
  app.ontoolinput = (params) => {
    timeline.push("tool-input");
    resolveInput(params);
  };
  app.ontoolresult = (params) => {
    timeline.push("tool-result");
    resolveFinal(params);
  };
  app.ontoolcancelled = (params) => {
    timeline.push("tool-cancelled");
    resolveFinal(params);
  };
  app.onhostcontextchanged = (params) => {
    contextChanges.push(params);
  };
  return { app, timeline, contextChanges, input, final };
}

/** What a test works with; fresh for each test. */
export interface ControllerFixture {
  server: CardSocketServer;
  harness: ViewHarness;
  holder: HTMLDivElement;
  iframe: HTMLIFrameElement;
  pageActions: {
    openTab: Mock<(url: string) => void>;
    saveFile: Mock<(name: string, blob: Blob) => void>;
  };
  /**
   * The person's permission answers; fresh for each test, with clipboard-write granted to the
   * `clock` source (the default attach reply declares it).
   */
  grants: MemoryGrants;
  /**
   * Puts the card in the page's store, then creates and starts a card controller on the
   * fixture's socket, frame and proxy stand-in.
   */
  startCard(options?: {
    card?: CardDescriptor;
    timers?: TimerFunctions;
    onClose?: () => void;
    onReport?: (instanceId: string, text: string) => void;
    resume?: CardResume;
  }): CardController;
  /** Attach, proxy ready, view loaded and initialised, input received. */
  openCard(
    view?: ReturnType<typeof recordingView>,
    reply?: AttachReply,
  ): Promise<{ controller: CardController; view: ReturnType<typeof recordingView> }>;
  /**
   * Waits until the page has handled everything sent to it so far: the server's acknowledgement
   * travels behind the server's earlier events on the same connection, and arrives a task later
   * than the view's notifications.
   */
  roundTrip(): Promise<void>;
  /**
   * Plays a chunk of the reply whose tool part ("call-1") opened the card, as the server streams
   * it (`message:chunk`); a chunk naming another call is another card's.
   */
  chunk(chunk: ReplyChunk): void;
}

/**
 * Registers the set-up and clean-up hooks of a test file.
 *
 * @returns the fixture, filled in before each test.
 */
export function setUpControllerFixture(): ControllerFixture {
  const controllers: CardController[] = [];
  const fixture = {
    pageActions: {
      openTab: vi.fn<(url: string) => void>(),
      saveFile: vi.fn<(name: string, blob: Blob) => void>(),
    },
  } as unknown as ControllerFixture;

  let unbind: () => void = () => undefined;

  beforeEach(async () => {
    resetStores();
    fixture.server = await startCardSocketServer();
    unbind = bindServerEvents(fixture.server.client);
    fixture.harness = await createViewHarness();
    fixture.holder = document.createElement("div");
    fixture.iframe = document.createElement("iframe");
    fixture.holder.appendChild(fixture.iframe);
    document.body.appendChild(fixture.holder);
    fixture.pageActions.openTab.mockReset();
    fixture.pageActions.saveFile.mockReset();
    fixture.grants = memoryGrants({ clock: { clipboardWrite: "granted" } });
  });

  afterEach(async () => {
    for (const controller of controllers.splice(0)) {
      await controller.dispose("unmounted");
      cardViewAccess.remove(controller.instanceId);
    }
    unbind();
    fixture.holder.remove();
    await fixture.server.close();
  });

  fixture.startCard = (options = {}) => {
    const card = options.card ?? descriptor();
    // The page holds the card before its view mounts: the child of its call's tool part in the
    // reply being written (a `data-card` chunk, or a snapshot).
    showMessages(card.conversationId, [
      chatMessage("reply-1", {
        conversationId: card.conversationId ?? "conv-1",
        chatId: "chat-1",
        status: "streaming",
        parts: [
          {
            type: "tool",
            toolCallId: "call-1",
            name: card.tool,
            source: card.source,
            state: card.inputStreaming === true ? "input-streaming" : "input-available",
            input: card.arguments,
            instanceId: card.instanceId,
          },
        ],
      }),
    ]);
    useHostStore.getState().cardOpened(card);
    const controller = new CardController({
      card,
      socket: fixture.server.client,
      iframe: fixture.iframe,
      holder: fixture.holder,
      theme: "light",
      callbacks: () => ({
        onClose: options.onClose ?? (() => undefined),
        onReport: options.onReport,
      }),
      resume: options.resume,
      createTransport: () => fixture.harness.hostSide,
      page: fixture.pageActions,
      permissions: fixture.grants,
      ...(options.timers !== undefined ? { timers: options.timers } : {}),
    });
    controllers.push(controller);
    controller.start();
    return controller;
  };

  fixture.roundTrip = async () => {
    fixture.server.answer("card:log", () => ({}));
    await requestValue(fixture.server.client, "card:log", {
      instanceId: "sync",
      level: "debug",
      data: null,
    });
  };

  fixture.chunk = (chunk) => {
    fixture.server.emit("message:chunk", {
      conversationId: "conv-1",
      chatId: "chat-1",
      messageId: "reply-1",
      chunk,
    });
  };

  fixture.openCard = async (view = recordingView(), reply = attachReply()) => {
    fixture.server.answer("card:attach", () => reply);
    const controller = fixture.startCard();
    expect(await attributeSet(fixture.iframe, "src")).toBe(reply.page.proxyUrl);
    await fixture.harness.proxyReady();
    await fixture.harness.resourceReady;
    await fixture.harness.loadView(view.app);
    await view.input;
    return { controller, view };
  };

  return fixture;
}
