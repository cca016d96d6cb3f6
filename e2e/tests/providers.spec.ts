// The chat through each real provider client (AI SDK) against a provider stand-in that streams
// like the real API (packages/testing): a card the model opens keeps its iframe and stays usable
// through the reply's end, a second reply, full screen and a reload; the footer shows the tokens;
// Stop closes the provider's connection; a failure ends the reply with one sentence and Retry.
// One stand-in, one host and one page per provider; each test opens its own conversation.
import { expect, test, type Locator, type Page } from "@playwright/test";
import {
  startProviderStandIn,
  type ProviderStandIn,
  type RecordedRequest,
  type ReplyUsage,
  type ViewMessage,
} from "@mcp-chat-host/testing";
import { cards, scrolledToViewOf, viewFrame, viewOf } from "../support/card-frames";
import {
  expectChatReady,
  newConversation,
  replies,
  sendMessage,
  signIn,
  userMessages,
} from "../support/chat-page";
import type { RunningHost } from "../support/host";
import {
  anthropicMessages,
  openaiChat,
  openaiResponses,
  ProviderReplies,
  startProviderHost,
  type ProviderCase,
} from "../support/providers";
import { watchSocketFrames, type SocketFrames } from "../support/socket-frames";
import {
  cardFrameRecords,
  loadedCardFrame,
  markView,
  viewIsMarked,
  watchCardFrames,
} from "../support/providers-frames";
import {
  attachPageOnFailure,
  expectFailedReply,
  lastSettledRequest,
  retryReply,
  sendWithoutWaiting,
} from "../support/providers-replies";

/** Usage to script per API, so every provider shows 1,200 tokens in, 1,000 of them cached. */
function scriptedUsage(provider: ProviderCase): ReplyUsage {
  // Anthropic reports input tokens without the cached ones; the OpenAI APIs include them.
  return provider.api === "messages"
    ? { inputTokens: 200, cachedInputTokens: 1_000, cacheCreationInputTokens: 0, outputTokens: 56 }
    : { inputTokens: 1_200, cachedInputTokens: 1_000, outputTokens: 56 };
}

for (const provider of [openaiResponses, anthropicMessages, openaiChat]) {
  test.describe(`through ${provider.name}`, () => {
    test.describe.configure({ mode: "serial", timeout: 90_000 });

    let standIn: ProviderStandIn;
    let host: RunningHost;
    let page: Page;
    let frames: SocketFrames;
    const answers = new ProviderReplies();

    test.beforeAll(async ({ browser }) => {
      standIn = await startProviderStandIn();
      standIn.respondWith(answers.responder);
      host = await startProviderHost(standIn, provider);
      page = await browser.newPage();
      await watchCardFrames(page);
      frames = watchSocketFrames(page);
      await signIn(page, host);
    });

    test.afterEach(async () => {
      answers.releaseAll();
      await attachPageOnFailure(page);
    });

    test.afterAll(async () => {
      await page?.close();
      await host?.stop();
      await standIn?.close();
    });

    test("a card the model opens keeps its iframe and works after the reply, a second reply, full screen and a reload", async () => {
      // The answer after the tool result is held: the card opens and loads while the reply is
      // still streaming, and the reply's end comes after, as with a real model.
      const held = answers.holdAnswerAfterTool();
      const reply = await sendWithoutWaiting(page, 'call open-notes {"text":"Buy milk"}');
      await expect(cards(page)).toHaveCount(1);
      const card = cards(page).first();
      await expect(card).toHaveAttribute("data-status", "ready");
      const notes = viewOf(card);
      await expect(notes.getByTestId("notes-text")).toHaveValue("Buy milk");
      await held.arrived;
      await expect(reply).toHaveAttribute("data-status", "streaming");
      const opened = await loadedCardFrame(page);
      expect(opened.loads).toBe(1);
      const view = await viewFrame(card);
      await markView(view);
      const toolRequest = standIn.requests.at(-2);
      expect(toolRequest?.reply?.toolCalls?.[0]).toEqual({
        name: "open-notes",
        arguments: '{"text":"Buy milk"}',
      });
      // The arguments streamed in pieces: the card opened before they were complete.
      const toolChunks = toolChunkTypes(frames);
      expect(toolChunks.join(" ")).toMatch(
        /^tool-input-start( tool-input-delta)* data-card( tool-input-delta)* tool-input-available tool-output-available$/,
      );
      expect(toolChunks.filter((type) => type === "tool-input-delta").length).toBeGreaterThan(0);

      let saves = 0;
      /** The same iframe, never loaded again, the same view document, live and answering. */
      async function expectSameLiveCard(step: string): Promise<void> {
        expect(await cardFrameRecords(page), step).toEqual([opened]);
        expect(await viewFrame(card), step).toBe(view);
        expect(await viewIsMarked(view), step).toBe(true);
        await expectLiveNotes(card, step);
      }
      /** The view shows its text, and its Save button calls the app's tool through the page. */
      async function expectLiveNotes(notesCard: Locator, step: string): Promise<void> {
        const notesView = viewOf(notesCard);
        await expect(notesView.getByTestId("notes-text"), step).toHaveValue("Buy milk");
        await expect(notesView.getByTestId("notes-words"), step).toHaveText("2 words");
        const status = notesView.getByTestId("notes-status");
        const before = await status.innerText();
        // After a reload the list follows its end while the card settles: a person scrolls to it.
        if (step === "after a reload") await scrolledToViewOf(notesCard);
        await notesView.getByTestId("notes-save").click();
        saves += 1;
        await expect
          .poll(async () => (await host.toolCalls())["notes/save-notes"], { message: step })
          .toBe(saves);
        await expect(status, step).not.toHaveText(before);
        await expect(status, step).toHaveText(/^Saved the notes \(2 words\), version \d+\.$/);
      }

      held.release();
      await expect(reply).toHaveAttribute("data-status", "complete");
      await expect(reply).toContainText("Let me open that for you.");
      await expect(reply).toContainText("The tool open-notes returned:");
      await expectSameLiveCard("after the reply's end");

      await sendMessage(page, "Thanks, that is all.");
      await expectSameLiveCard("after a second reply");

      await card.getByTestId("card-fullscreen").click();
      await expect(card).toHaveAttribute("data-display-mode", "fullscreen");
      await expectSameLiveCard("in full screen");
      await card.getByTestId("card-fullscreen").click();
      await expect(card).toHaveAttribute("data-display-mode", "inline");
      await expectSameLiveCard("back inline");

      await page.reload();
      await expectChatReady(page);
      await expect(replies(page)).toHaveCount(2);
      await expect(cards(page)).toHaveCount(1);
      const restored = cards(page).first();
      await expect(restored).toHaveAttribute("data-status", "ready");
      const reloaded = await loadedCardFrame(page);
      await expectLiveNotes(restored, "after a reload");
      expect(await cardFrameRecords(page)).toEqual([reloaded]);
      expect(reloaded.loads).toBe(1);
      expect((await host.toolCalls())["notes/open-notes"]).toBe(1);
    });

    test("the footer of a completed reply shows the tokens the provider reported", async () => {
      await newConversation(page);
      standIn.respondWith([{ text: "Counted.", usage: scriptedUsage(provider) }]);
      const reply = await sendMessage(page, "How many tokens is this?");
      await expect(reply.getByTestId("message-assistant")).toHaveText("Counted.");
      await expect(reply.getByTestId("message-usage")).toHaveText(
        "Tokens used: 1,200 tokens in (1,000 cached) · 56 out",
      );
    });

    test("Stop closes the provider's connection and the reply shows as stopped", async () => {
      await newConversation(page);
      standIn.respondWith([
        { text: "Here is a long answer that the model will never finish writing for you." },
      ]);
      // Half the stream's events, then nothing: the text so far shows, and the stream stays open.
      standIn.injectFault({ kind: "stall" });
      const reply = await sendWithoutWaiting(page, "Tell me a long story.");
      await expect(reply.getByTestId("message-assistant")).toContainText("Here is");
      await expect(reply).toHaveAttribute("data-status", "streaming");
      const stalled = standIn.requests.at(-1);
      expect(stalled?.fault).toEqual({ kind: "stall" });
      await page.getByTestId("stop-button").click();
      await expect(reply).toHaveAttribute("data-status", "stopped");
      await expect(reply.getByTestId("message-stopped")).toHaveText("You stopped this reply.");
      expect((await lastSettledRequest(standIn)).closedByClient).toBe(true);
      await expect(page.getByTestId("composer-input")).toBeEditable();
      const next = await sendMessage(page, "Something else, then.");
      await expect(next).toContainText("You said: Something else, then.");
      // The model is told what it wrote before the person stopped it, marked as stopped.
      const history = conversationOf(await lastSettledRequest(standIn));
      expect(history.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
      expect(history[1]?.text).toMatch(
        /^Here is.*\[The person stopped this reply before it was finished\.\]$/s,
      );
    });

    test("an error in the stream ends the reply with one sentence, and Retry runs the turn again", async () => {
      await newConversation(page);
      standIn.injectFault({ kind: "stream-error" });
      const failed = await sendWithoutWaiting(page, "Please answer this.");
      await expectFailedReply(failed, inStreamErrorSentence(provider), standIn.apiKey);
      await expect(page.getByTestId("composer-input")).toBeEditable();
      const requestsBefore = standIn.requests.length;
      const retried = await retryReply(page, failed);
      await expect(retried).toContainText("You said: Please answer this.");
      expect(standIn.requests).toHaveLength(requestsBefore + 1);
      await expect(userMessages(page)).toHaveCount(1);
      const next = await sendMessage(page, "And now?");
      await expect(next).toContainText("You said: And now?");
    });
  });
}

/** The messages of a request other than the system prompt, as the stand-in read them. */
function conversationOf(request: RecordedRequest): readonly ViewMessage[] {
  return (request.view?.messages ?? []).filter((message) => message.role !== "system");
}

/** The verbs of the tool-part chunks the page received so far, in order of arrival. */
function toolChunkTypes(frames: SocketFrames): string[] {
  return frames.received.flatMap((frame) => {
    if (!frame.startsWith('42["message:chunk"')) return [];
    const [, payload] = JSON.parse(frame.slice(2)) as [string, { chunk: { type: string } }];
    const type = payload.chunk.type;
    return type.startsWith("tool-") || type === "data-card" ? [type] : [];
  });
}

/**
 * What the host says about each API's in-stream error event: the OpenAI APIs send a
 * `server_error`, Anthropic an `overloaded_error`.
 */
function inStreamErrorSentence(provider: ProviderCase): string {
  return provider.api === "messages"
    ? "Anthropic is overloaded right now. Try again in a minute."
    : `${provider.subject} had an internal error. Try again in a moment.`;
}
