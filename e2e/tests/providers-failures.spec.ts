// Provider failures in Chromium through one real provider client (OpenAI's Responses API)
// against the stand-in: each failure ends the reply with its one plain sentence and a Retry
// button, Retry runs the turn again without the failed reply, and the chat goes on. Then the
// tool names a chat gives the model, through an OpenAI-compatible server: two npm servers
// both offer `get-time`, the page says so, and a call by the model's name reaches the right one.
import { expect, test, type Page } from "@playwright/test";
import {
  startProviderStandIn,
  toolNamesOf,
  type Fault,
  type ProviderStandIn,
} from "@mcp-chat-host/testing";
import { cards } from "../support/card-frames";
import { newConversation, sendMessage, signIn } from "../support/chat-page";
import type { RunningHost } from "../support/host";
import {
  openaiCompatible,
  openaiResponses,
  ProviderReplies,
  startProviderHost,
} from "../support/providers";
import {
  attachPageOnFailure,
  expectFailedReply,
  lastSettledRequest,
  retryReply,
  sendWithoutWaiting,
} from "../support/providers-replies";

/** One failure the stand-in plays, and the sentence the reply must end with. */
interface FailureCase {
  readonly title: string;
  readonly fault: Fault;
  readonly sentence: string;
}

/** The host's stall timeout in these tests, in seconds. */
const STALL_SECONDS = 2;

const failures: readonly FailureCase[] = [
  {
    title: "a refused key (401)",
    fault: { kind: "http", status: 401 },
    sentence:
      "OpenAI did not accept the API key (HTTP 401). Check OPENAI_API_KEY in the server's environment.",
  },
  {
    title: "a rate limit asking to wait 10 minutes (429)",
    fault: { kind: "http", status: 429, retryAfterSeconds: 600 },
    sentence: "OpenAI is rate limiting this host. Try again in 10 minutes.",
  },
  {
    title: "a stream that stalls",
    fault: { kind: "stall" },
    sentence: `The model stopped answering for ${STALL_SECONDS} s; try again.`,
  },
  {
    title: "a connection cut mid-stream",
    fault: { kind: "cut" },
    sentence: "The connection to OpenAI broke before the reply was finished; try again.",
  },
  {
    title: "a failed response event in the stream",
    fault: { kind: "stream-error", variant: "response.failed" },
    sentence: "OpenAI had an internal error. Try again in a moment.",
  },
];

test.describe("failures through openai", () => {
  test.describe.configure({ mode: "serial", timeout: 90_000 });

  let standIn: ProviderStandIn;
  let host: RunningHost;
  let page: Page;

  test.beforeAll(async ({ browser }) => {
    standIn = await startProviderStandIn();
    host = await startProviderHost(standIn, openaiResponses, {
      modelStallTimeout: STALL_SECONDS,
    });
    page = await browser.newPage();
    await signIn(page, host);
  });

  test.afterEach(() => attachPageOnFailure(page));

  test.afterAll(async () => {
    await page?.close();
    await host?.stop();
    await standIn?.close();
  });

  for (const failure of failures) {
    test(`${failure.title} ends the reply with one sentence, and Retry runs the turn again`, async () => {
      await newConversation(page);
      standIn.injectFault(failure.fault);
      const text = `Answer me despite ${failure.title}.`;
      const failed = await sendWithoutWaiting(page, text);
      await expectFailedReply(failed, failure.sentence, standIn.apiKey);
      expect((await lastSettledRequest(standIn)).fault).toEqual(failure.fault);
      await expect(page.getByTestId("composer-input")).toBeEditable();
      if (failure.fault.kind === "http" && failure.fault.status === 429) {
        await page.screenshot({ path: test.info().outputPath("failed-reply-with-retry.png") });
      }

      const retried = await retryReply(page, failed);
      await expect(retried).toContainText(`You said: ${text}`);
      // The turn ran again from the person's message: the failed reply is not in the history
      // (the program's system prompt comes first).
      const retry = await lastSettledRequest(standIn);
      expect(retry.fault).toBeUndefined();
      expect(
        retry.view?.messages.map((message) => message.role).filter((role) => role !== "system"),
      ).toEqual(["user"]);
      expect(retry.view?.lastUserText).toBe(text);

      const next = await sendMessage(page, "Thank you.");
      await expect(next).toContainText("You said: Thank you.");
    });
  }

  test("a message sent again after a failure reaches the model once, without the failed text", async () => {
    await newConversation(page);
    // Half the stream, then the socket is destroyed: some of the reply's text has arrived.
    standIn.injectFault({ kind: "cut" });
    const text = "Tell me once.";
    const failed = await sendWithoutWaiting(page, text);
    await expectFailedReply(
      failed,
      "The connection to OpenAI broke before the reply was finished; try again.",
      standIn.apiKey,
    );
    await expect(failed.getByTestId("message-assistant")).toContainText("You said");
    const again = await sendMessage(page, text);
    await expect(again).toContainText(`You said: ${text}`);
    const request = await lastSettledRequest(standIn);
    // Besides the program's system prompt.
    expect(
      request.view?.messages
        .filter((message) => message.role !== "system")
        .map((message) => [message.role, message.text]),
    ).toEqual([["user", text]]);
  });
});

test.describe("two servers that both offer get-time, through openai-compatible", () => {
  test.describe.configure({ timeout: 120_000 });

  let standIn: ProviderStandIn | undefined;
  let host: RunningHost | undefined;

  test.afterEach(async () => {
    await host?.stop();
    await standIn?.close();
  });

  test("the page names the renamed tools, and the model's call reaches basic-vanillajs", async ({
    page,
  }, testInfo) => {
    standIn = await startProviderStandIn();
    const answers = new ProviderReplies();
    standIn.respondWith(answers.responder);
    host = await startProviderHost(standIn, openaiCompatible, {
      servers: ["basic-react", "basic-vanillajs"],
    });
    const running = host;
    await signIn(page, running);

    const reply = await sendMessage(page, "call basic-vanillajs__get-time");
    const offered = toolNamesOf(standIn.requests[0]!);
    expect(offered).toContain("basic-react__get-time");
    expect(offered).toContain("basic-vanillajs__get-time");
    expect(offered).not.toContain("get-time");

    const notice = page.getByTestId("tool-names-notice");
    await expect(notice).toContainText("2 tools have other names for the model");
    await notice.getByTestId("tool-names-notice-toggle").click();
    const items = notice.getByTestId("tool-names-notice-item");
    await expect(items).toHaveCount(2);
    await expect(items.filter({ hasText: "basic-vanillajs__get-time" })).toContainText(
      "get-time (basic-vanillajs)",
    );
    await expect(items.filter({ hasText: "basic-react__get-time" })).toContainText(
      "get-time (basic-react)",
    );

    const row = reply.getByTestId("tool-row");
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId("tool-row-name")).toHaveText("get-time");
    await expect(row.getByTestId("tool-row-source")).toHaveText("from basic-vanillajs");
    await row.locator("summary").click();
    await expect(row.getByTestId("tool-row-model-name")).toHaveText(
      "The model calls this tool basic-vanillajs__get-time.",
    );
    await expect(cards(page)).toHaveCount(1);
    const card = cards(page).first();
    await expect(card).toHaveAttribute("data-status", "ready");
    await expect(card.getByTestId("card-source")).toContainText("basic-vanillajs");
    await expect(reply).toContainText("The tool basic-vanillajs__get-time returned:");
    expect((await running.toolCalls())["basic-vanillajs/get-time"]).toBe(1);
    expect((await running.toolCalls())["basic-react/get-time"]).toBeUndefined();
    await page.screenshot({ path: testInfo.outputPath("renamed-tools-notice.png") });
  });
});
