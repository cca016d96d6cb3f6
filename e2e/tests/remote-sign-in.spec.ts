// A person signs in to a remote MCP server with their own account, in Chromium, against a real
// authorization server (oidc-provider: its own login and consent pages, PKCE, resource indicators,
// registration, revocation) and an MCP server that checks its bearer tokens: Connect opens a
// popup that goes through those pages and closes itself, the server's tools appear without a
// reload, its card shows who is signed in, a reload keeps the connection, Disconnect revokes. A
// hostile authorization endpoint is refused before the popup is sent anywhere.
import {
  startOAuthAuthorizationServer,
  startProtectedMcpServer,
  type RunningOAuthAuthorizationServer,
  type RunningProtectedMcpServer,
} from "@mcp-chat-host/testing";
import { expect, test, type Page } from "@playwright/test";
import { openCard, viewOf } from "../support/card-frames";
import { signIn } from "../support/chat-page";
import { startHost, type RunningHost } from "../support/host";

let authorization: RunningOAuthAuthorizationServer;
let notes: RunningProtectedMcpServer;
let host: RunningHost | undefined;

test.beforeAll(async () => {
  authorization = await startOAuthAuthorizationServer({ accounts: ["ada"] });
  notes = await startProtectedMcpServer({ authorizationServer: authorization });
  authorization.addResource({ url: notes.resource, scopes: [...notes.scopesSupported] });
});

test.afterAll(async () => {
  await notes.stop();
  await authorization.stop();
});

test.beforeEach(async ({ page }) => {
  authorization.setFaults({});
  host = await startHost({ remote: { notes: { url: notes.url } } });
  await signIn(page, host);
});

test.afterEach(async () => {
  await host?.stop();
  host = undefined;
});

/** The servers panel's row of "notes", the panel opened. */
async function notesRow(page: Page) {
  const panel = page.getByTestId("servers-panel");
  if (!(await panel.isVisible())) await page.getByTestId("servers-button").click();
  return panel.locator('[data-testid="server-row"][data-server="notes"]');
}

test("a person connects a remote server through its own sign-in pages, uses it, keeps it over a reload and disconnects", async ({
  page,
}) => {
  // The chat says where the person meets the server: it needs them to sign in.
  const bar = page.locator('[data-testid="sign-in-bar-item"][data-server="notes"]');
  await expect(bar).toBeVisible();
  const popupOpened = page.waitForEvent("popup");
  await bar.getByRole("button", { name: "Connect notes" }).click();
  const popup = await popupOpened;
  // The authorization server's own pages: its login, then its consent.
  await popup.getByLabel("Account").fill("ada");
  await popup.getByRole("button", { name: "Sign in" }).click();
  await expect(popup.getByRole("button", { name: "Allow" })).toBeVisible();
  await popup.screenshot({ path: test.info().outputPath("consent.png") });
  const closed = popup.waitForEvent("close");
  await popup.getByRole("button", { name: "Allow" }).click();
  await closed;

  const row = await notesRow(page);
  await expect(row).toHaveAttribute("data-state", "connected");
  await expect(row.getByTestId("server-scopes")).toContainText("mcp:use");
  await page.screenshot({ path: test.info().outputPath("servers-panel.png") });
  await page.getByTestId("servers-panel-close").click();
  await expect(bar).toHaveCount(0);

  const { card } = await openCard(page, "/call whoami");
  await expect(viewOf(card).getByTestId("whoami-text")).toContainText("Signed in as ada");

  await page.reload();
  const again = await notesRow(page);
  await expect(again).toHaveAttribute("data-state", "connected");
  expect(authorization.signIns).toEqual(["ada"]);

  await again.getByTestId("server-disconnect").click();
  await again.getByTestId("server-disconnect-confirm").click();
  await expect(again).toHaveAttribute("data-state", "needs-sign-in");
  expect(authorization.revocations.some((revocation) => revocation.status === 200)).toBe(true);
});

test("a hostile authorization endpoint is refused, and the popup is sent nowhere", async ({
  page,
}) => {
  authorization.setFaults({ authorizationEndpoint: "file:///etc/passwd" });
  const row = await notesRow(page);
  await expect(row).toHaveAttribute("data-state", "needs-sign-in");
  const popupOpened = page.waitForEvent("popup");
  await row.getByTestId("server-connect").click();
  const popup = await popupOpened;
  await expect(row.getByTestId("server-message")).toContainText(
    'The server "notes" gave a sign-in page that this host will not use',
  );
  // The popup was closed at about:blank: it never loaded the hostile address.
  await expect.poll(() => popup.isClosed()).toBe(true);
  expect(popup.url()).not.toContain("etc/passwd");
});

test.describe("servers a person adds", () => {
  test.beforeEach(async ({ page }) => {
    await host?.stop();
    host = await startHost({
      hostSettings: {
        connectors: { allow: ["http://127.0.0.1:*/*", "http://10.0.0.1/*"], allowLoopback: true },
      },
    });
    await signIn(page, host);
  });

  test("a private address is refused with a sentence; an allowed one is added and signed in to", async ({
    page,
  }) => {
    await page.getByTestId("servers-button").click();
    const form = page.getByTestId("add-server-form");
    await form.getByTestId("add-server-url").fill("http://10.0.0.1/mcp");
    await form.getByTestId("add-server-submit").click();
    await expect(form.getByTestId("add-server-message")).toContainText(
      "leads to a private network address (10.0.0.1)",
    );
    await form.getByTestId("add-server-url").fill(notes.url);
    await form.getByTestId("add-server-submit").click();
    const row = page.locator('[data-testid="server-row"][data-server="127.0.0.1"]');
    await expect(row).toHaveAttribute("data-state", "needs-sign-in");
    const popupOpened = page.waitForEvent("popup");
    await row.getByTestId("server-connect").click();
    const popup = await popupOpened;
    await popup.getByLabel("Account").fill("ada");
    await popup.getByRole("button", { name: "Sign in" }).click();
    const closed = popup.waitForEvent("close");
    await popup.getByRole("button", { name: "Allow" }).click();
    await closed;
    await expect(row).toHaveAttribute("data-state", "connected");
    await page.screenshot({ path: test.info().outputPath("connector.png") });
    await row.getByTestId("server-remove").click();
    await row.getByTestId("server-remove-confirm").click();
    await expect(row).toHaveCount(0);
  });
});
