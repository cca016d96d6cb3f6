// Several nodes behind a load balancer, in Chromium: a real PostgreSQL and Redis, two nodes of the
// real CLI in trusted-header mode and the suite's balancer as the authenticating proxy (it sets
// the user from a cookie of each browser context, and a second cookie pins a context to a node).
// Tabs of one user on different nodes see each other's changes, live; another user sees none of
// them; a reply streaming on one node is seen live from the other; a node killed with SIGKILL
// while it streams loses its tabs to the other node, which shows the conversation with its cards
// live, calls no tool (counted at the MCP server) and marks the reply interrupted once the dead
// node's lease runs out; a Postgres restart and a Redis restart lose no acknowledged message.
// Each node's own /metrics counts its sessions, turns and tool calls as they happen.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { metricSample } from "@mcp-chat-host/host/testing";
import {
  defaultResponder,
  startProviderStandIn,
  type ProviderStandIn,
} from "@mcp-chat-host/testing";
import { cards, openCard, viewOf } from "../support/card-frames";
import {
  conversationHash,
  expectChatReady,
  replies,
  sendMessage,
  userMessages,
} from "../support/chat-page";
import { startCluster, type RunningCluster } from "../support/cluster";

/** Seconds a node's lease lasts without renewal (the host's default). */
const LEASE_SECONDS = 15;
const TOOL = "basic-vanillajs/get-time";
const STORY =
  "Once upon a time two nodes shared one database, and when one of them fell the other carried on with every conversation.";

test.describe.configure({ mode: "serial" });
test.setTimeout(150_000);

let standIn: ProviderStandIn;
let cluster: RunningCluster;
const pages: Page[] = [];

test.beforeAll(async () => {
  test.setTimeout(180_000);
  standIn = await startProviderStandIn();
  // The stand-in model: `call <tool>` calls it, "long story" tells one, the rest is echoed.
  standIn.respondWith((view) =>
    view.lastUserText?.includes("long story") === true ? { text: STORY } : defaultResponder(view),
  );
  cluster = await startCluster({
    servers: ["basic-vanillajs"],
    model: `openai-compatible:${standIn.openaiBaseURL}#local-model`,
    env: { OPENAI_COMPATIBLE_API_KEY: standIn.apiKey },
  });
});

test.afterAll(async () => {
  for (const page of pages.splice(0)) await page.context().close();
  await cluster?.stop();
  await standIn?.close();
});

/**
 * A tab of `user` pinned to `node` (a browser context of its own: the balancer reads the user and
 * the node from its cookies), on the balancer's address, with the chat ready.
 */
async function tab(browser: Browser, user: string, node: string, hash = ""): Promise<Page> {
  const context = await browser.newContext();
  await context.addCookies([
    { name: "x-test-user", value: user, url: cluster.url },
    { name: "x-test-node", value: node, url: cluster.url },
  ]);
  const page = await context.newPage();
  pages.push(page);
  await page.goto(`${cluster.url}/${hash}`);
  await expectChatReady(page);
  return page;
}

/** The time the card's view shows (the opening call's result). */
function serverTime(page: Page) {
  return viewOf(cards(page).first()).locator("p", { hasText: "Server Time:" }).locator("code");
}

let aliceA: Page;
let aliceB: Page;
let hash: string;
let openingTime: string;

test("tabs of one user on two nodes see each other's changes live; another user sees none", async ({
  browser,
}) => {
  const before = await Promise.all(cluster.nodes.map((node) => node.metrics()));
  aliceA = await tab(browser, "alice", "a");
  const { card, reply } = await openCard(aliceA, "call get-time");
  await expect(card.getByTestId("card-title")).toHaveText("Get Time");
  openingTime = (await serverTime(aliceA).innerText()).trim();
  expect(openingTime).toMatch(/^\d{4}-.*Z$/);
  await expect(reply).toContainText("get-time returned");
  hash = await conversationHash(aliceA);
  expect(cluster.toolCalls()).toEqual({ [TOOL]: 1 });
  expect(cluster.balancer.upgrades()["a"]).toBeGreaterThanOrEqual(1);

  // The same user on node B: the conversation, its reply and its live card.
  const upgradesOnB = cluster.balancer.upgrades()["b"] ?? 0;
  aliceB = await tab(browser, "alice", "b", hash);
  expect(cluster.balancer.upgrades()["b"]).toBeGreaterThan(upgradesOnB);
  await expect(userMessages(aliceB)).toHaveCount(1);
  await expect(replies(aliceB).first()).toHaveAttribute("data-status", "complete");
  await expect(cards(aliceB)).toHaveCount(1);
  await expect(cards(aliceB).first()).toHaveAttribute("data-status", "ready");
  await expect(serverTime(aliceB)).toHaveText(openingTime);

  // A message sent on B shows on A without a reload, and so does its reply.
  await sendMessage(aliceB, "hello from node b");
  await expect(userMessages(aliceA).nth(1)).toContainText("hello from node b");
  await expect(replies(aliceA).nth(1)).toHaveAttribute("data-status", "complete");
  await expect(replies(aliceA).nth(1)).toContainText("You said: hello from node b");
  expect(cluster.toolCalls()).toEqual({ [TOOL]: 1 });

  // Each node counts on its own /metrics what it did: A ran the turn that called the tool, B the
  // one that echoed; each holds a session of Alice's, and sees its database and Redis.
  const after = await Promise.all(cluster.nodes.map((node) => node.metrics()));
  const moved = (node: number, name: string, labels: Record<string, string> = {}) =>
    metricSample(after[node] ?? "", name, labels) - metricSample(before[node] ?? "", name, labels);
  const modelCall = { source: "basic-vanillajs", tool: "get-time", caller: "model", outcome: "ok" };
  expect(moved(0, "mcp_chat_host_tool_calls_total", modelCall)).toBe(1);
  expect(moved(1, "mcp_chat_host_tool_calls_total", modelCall)).toBe(0);
  for (const node of [0, 1]) {
    expect(moved(node, "mcp_chat_host_turns_total", { outcome: "complete" })).toBe(1);
    expect(moved(node, "mcp_chat_host_sessions")).toBeGreaterThanOrEqual(1);
    expect(moved(node, "mcp_chat_host_model_requests_total")).toBeGreaterThanOrEqual(1);
    for (const dependency of ["database", "redis"]) {
      expect(metricSample(after[node] ?? "", "mcp_chat_host_dependency_up", { dependency })).toBe(
        1,
      );
    }
  }

  // Bob, on either node, sees neither Alice's conversation nor its messages, even by its address.
  const conversationId = hash.replace(/^#\/c\//, "");
  for (const node of ["a", "b"]) {
    const bob = await tab(browser, "bob", node);
    await expect(bob.locator(`[data-conversation-id="${conversationId}"]`)).toHaveCount(0);
    await bob.goto(`${cluster.url}/${hash}`);
    await expectChatReady(bob);
    await expect(bob.getByText("hello from node b")).toHaveCount(0);
    await expect(userMessages(bob)).toHaveCount(0);
    await expect(cards(bob)).toHaveCount(0);
    await bob.context().close();
    pages.splice(pages.indexOf(bob), 1);
  }
});

test("a reply streaming on A is seen live from B; after kill -9 of A the tab moves to B, cards live, no tool call, the reply interrupted", async () => {
  // The stream sends its first pieces, then nothing: the reply stays streaming on A.
  standIn.injectFault(
    { kind: "stall", afterEvents: 5 },
    { when: (view) => view.lastUserText?.includes("long story") === true },
  );
  const before = await replies(aliceA).count();
  await aliceA.getByTestId("composer-input").fill("tell me a long story");
  await aliceA.getByTestId("composer-input").press("Enter");
  const streamingOnA = replies(aliceA).nth(before);
  const streamingOnB = replies(aliceB).nth(before);
  await expect(streamingOnA).toHaveAttribute("data-status", "streaming");
  await expect(streamingOnA).toContainText("Once");
  await expect(streamingOnB).toHaveAttribute("data-status", "streaming");
  await expect(streamingOnB).toContainText("Once");
  const callsBefore = cluster.toolCalls();
  const upgradesOnB = cluster.balancer.upgrades()["b"] ?? 0;

  const [nodeA] = cluster.nodes;
  if (nodeA === undefined) throw new Error("The cluster has no node a.");
  await nodeA.kill();
  expect(nodeA.running()).toBe(false);

  // A's tab reconnects through the balancer, which skips the dead node, to B.
  await expect.poll(() => cluster.balancer.upgrades()["b"] ?? 0).toBeGreaterThan(upgradesOnB);
  await expectChatReady(aliceA);
  expect(new URL(aliceA.url()).hash).toBe(hash);
  await expect(userMessages(aliceA)).toHaveCount(3);
  await expect(cards(aliceA)).toHaveCount(1);
  await expect(cards(aliceA).first()).toHaveAttribute("data-status", "ready");
  await expect(serverTime(aliceA)).toHaveText(openingTime);
  // Interrupted once A's lease has run out (plus a sweep and the delivery).
  const leaseBound = { timeout: (LEASE_SECONDS + 15) * 1_000 };
  await expect(replies(aliceA).nth(before)).toHaveAttribute(
    "data-status",
    "interrupted",
    leaseBound,
  );
  await expect(replies(aliceB).nth(before)).toHaveAttribute(
    "data-status",
    "interrupted",
    leaseBound,
  );
  await expect(replies(aliceA).nth(before)).toContainText("Once");
  expect(cluster.toolCalls()).toEqual(callsBefore);
});

test("a Postgres restart and a Redis restart lose no acknowledged message", async () => {
  const [nodeA] = cluster.nodes;
  await nodeA?.start();
  // Back on A (the pin cookie), with B's tab on B.
  await aliceA.reload();
  await expectChatReady(aliceA);
  const sent = ["before the restarts"];
  await sendMessage(aliceA, sent[0] ?? "");

  /** Waits until every node says, on /readyz, that its database and Redis answer again. */
  const allReady = () =>
    expect
      .poll(() => Promise.all(cluster.nodes.map((node) => node.ready())), { timeout: 30_000 })
      .toEqual(cluster.nodes.map(() => true));

  await cluster.postgres.restart();
  await allReady();
  sent.push("after the database restart");
  await sendMessage(aliceA, sent[1] ?? "");
  await expect(userMessages(aliceB).last()).toContainText(sent[1] ?? "");

  await cluster.redis.restart();
  await allReady();
  sent.push("after the redis restart");
  await sendMessage(aliceA, sent[2] ?? "");
  // Delivery across nodes works again: B sees it without a reload.
  await expect(userMessages(aliceB).last()).toContainText(sent[2] ?? "");

  // Every acknowledged message is stored: both tabs, reloaded, show all of them with their replies.
  for (const page of [aliceA, aliceB]) {
    await page.reload();
    await expectChatReady(page);
    for (const text of sent) {
      await expect(userMessages(page).filter({ hasText: text })).toHaveCount(1);
      await expect(replies(page).filter({ hasText: `You said: ${text}` })).toHaveCount(1);
    }
    await expect(cards(page).first()).toHaveAttribute("data-status", "ready");
  }
  expect(cluster.toolCalls()).toEqual({ [TOOL]: 1 });
});
