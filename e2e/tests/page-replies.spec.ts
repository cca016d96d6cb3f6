// The exact replies a view gets in Chromium for what the host does not pass on: a request outside
// the host's list is answered JSON-RPC -32601 "The host doesn't pass on <method>.", and the host
// still answers what it does pass on.
import { expect, test } from "@playwright/test";
import { openCard, viewFrame, viewOf } from "../support/card-frames";
import { signIn } from "../support/chat-page";
import { startHost, type RunningHost } from "../support/host";
import { requestFromView } from "../support/view-rpc";

let host: RunningHost | undefined;

test.afterEach(async () => {
  await host?.stop();
  host = undefined;
});

test("a view's request the host does not pass on gets -32601 naming the method", async ({
  page,
}) => {
  host = await startHost();
  await signIn(page, host);
  const { card } = await openCard(page, `/call open-notes ${JSON.stringify({ text: "Milk" })}`);
  await expect(viewOf(card).getByTestId("notes-text")).toHaveValue("Milk");
  const view = await viewFrame(card);
  for (const method of [
    "sampling/createMessage",
    "tools/list",
    "prompts/list",
    "server/discover",
  ]) {
    expect(await requestFromView(view, method, {}), method).toEqual({
      error: { code: -32601, message: `The host doesn't pass on ${method}.` },
    });
  }
  expect(await requestFromView(view, "ping", {})).toEqual({ result: {} });
  await expect(card).toHaveAttribute("data-status", "ready");
});
