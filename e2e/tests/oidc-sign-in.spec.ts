// Sign-in with OpenID Connect in Chromium, against a real provider (oidc-provider on 127.0.0.1)
// and the published program (dist/cli.js): an unsigned person is sent to the provider, signs in,
// sees the chat, opens a card, reloads still signed in, and signs out (here and at the provider).
// And what a person can meet instead: a replayed or expired sign-in answer, an ID token meant
// for another application, an account outside the allowed domain.
import { freePort, startOidcProvider, type RunningOidcProvider } from "@mcp-chat-host/testing";
import { expect, type Page, test } from "@playwright/test";
import { openCard, viewOf } from "../support/card-frames";
import { expectChatReady } from "../support/chat-page";
import { type OidcHost, startOidcHost } from "../support/oidc";

/** The seconds a sign-in may take on the host of the expiry test. */
const shortTimeoutSeconds = 3;

let provider: RunningOidcProvider;
/** Allowed domain example.com, the default sign-in timeout. */
let host: OidcHost;
/** Its client's ID tokens carry another audience (the provider's fault). */
let mixedUp: OidcHost;
/** Sign-ins expire after {@link shortTimeoutSeconds}. */
let hurried: OidcHost;

test.beforeAll(async () => {
  const [port, mixedPort, hurriedPort] = [await freePort(), await freePort(), await freePort()];
  const client = (
    clientId: string,
    hostPort: number,
    extra: { idTokenAudience?: string } = {},
  ) => ({
    clientId,
    clientSecret: `${clientId}-secret`,
    redirectUris: [`http://127.0.0.1:${hostPort}/auth/callback`],
    postLogoutRedirectUris: [`http://127.0.0.1:${hostPort}/auth/signed-out`],
    ...extra,
  });
  provider = await startOidcProvider({
    clients: [
      client("chat", port),
      client("mixed", mixedPort, { idTokenAudience: "another-app" }),
      client("hurried", hurriedPort),
    ],
    accounts: [
      { login: "ada", email: "ada@example.com", emailVerified: true, name: "Ada Lovelace" },
      { login: "bob", email: "bob@other.org", emailVerified: true, name: "Bob" },
    ],
  });
  const start = (clientId: string, hostPort: number, flags: string[] = []) =>
    startOidcHost({
      port: hostPort,
      issuer: provider.issuer,
      clientId,
      clientSecret: `${clientId}-secret`,
      flags,
    });
  [host, mixedUp, hurried] = await Promise.all([
    start("chat", port, ["--oidc-allowed-domains", "example.com"]),
    start("mixed", mixedPort),
    start("hurried", hurriedPort, ["--oidc-sign-in-timeout", String(shortTimeoutSeconds)]),
  ]);
});

test.afterAll(async () => {
  await Promise.all([host?.stop(), mixedUp?.stop(), hurried?.stop()]);
  await provider?.stop();
});

/** Opens the host and waits for the provider's sign-in form. */
async function reachProviderForm(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/`);
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
}

/** Fills in the provider's form; resolves with the callback URL the browser was sent to. */
async function submitProviderForm(page: Page, origin: string, login: string): Promise<string> {
  const callback = page.waitForRequest((request) =>
    request.url().startsWith(`${origin}/auth/callback?`),
  );
  await page.getByLabel("Account").fill(login);
  await page.getByRole("button", { name: "Sign in" }).click();
  return (await callback).url();
}

test("a person signs in with the provider, uses the chat, reloads still signed in, and signs out", async ({
  page,
}) => {
  await reachProviderForm(page, host.origin);
  await submitProviderForm(page, host.origin, "ada");
  await expect(page).toHaveURL(`${host.origin}/`);
  await expectChatReady(page);
  const signOut = page.getByTestId("sign-out");
  await expect(signOut).toHaveAttribute("title", "Signed in as Ada Lovelace; sign out");

  const { card } = await openCard(page, "/call open-notes {}");
  await expect(viewOf(card).getByTestId("notes-text")).toBeVisible();

  await page.reload();
  await expectChatReady(page);
  await expect(page).toHaveURL(new RegExp(`^${host.origin}/`));
  await expect(page.getByTestId("sign-out")).toBeVisible();
  await expect(page.getByTestId("conversation-item")).toHaveCount(1);

  // Signing out here sends the browser to the provider's own sign-out, which comes back.
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/`));
  await page.getByRole("button", { name: "Yes, sign me out" }).click();
  await expect(page).toHaveURL(`${host.origin}/auth/signed-out`);
  await expect(page.getByRole("heading", { name: "You are signed out" })).toBeVisible();
  // Signed out at the provider too: opening the host asks for the account again.
  await page.getByRole("link", { name: "Sign in again" }).click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await expect(page.getByLabel("Account")).toBeEditable();
  // And the host's cookie is gone.
  const cookies = await page.context().cookies(host.origin);
  expect(cookies.filter((cookie) => cookie.name === "mch_session")).toEqual([]);
  expect(host.output()).not.toMatch(/chat-secret/);
});

test("a replayed sign-in answer is refused with a page that says to start again", async ({
  page,
}) => {
  await reachProviderForm(page, host.origin);
  const callback = await submitProviderForm(page, host.origin, "ada");
  await expectChatReady(page);
  await page.goto(callback);
  await expect(
    page.getByRole("heading", { name: "This sign-in link has expired or was already used" }),
  ).toBeVisible();
  await expect(
    page.getByText("This sign-in link has expired or was already used; start again."),
  ).toBeVisible();
  // The person's own sign-in is untouched: the chat still opens.
  await page.goto(`${host.origin}/`);
  await expectChatReady(page);
});

test("an answer after the sign-in timeout is refused as expired", async ({ page }) => {
  // The host keeps the state until shortTimeoutSeconds after it answered /auth/login (it saves
  // the state before answering), so once that much time has passed since the answer arrived,
  // the state has expired, whatever the machine's load.
  const loginAnswered = page
    .waitForResponse((response) => response.url() === `${hurried.origin}/auth/login`)
    .then(() => Date.now());
  await reachProviderForm(page, hurried.origin);
  const answeredAt = await loginAnswered;
  await expect
    .poll(() => Date.now() - answeredAt, { timeout: (shortTimeoutSeconds + 5) * 1_000 })
    .toBeGreaterThan(shortTimeoutSeconds * 1_000);
  await submitProviderForm(page, hurried.origin, "ada");
  await expect(
    page.getByText("This sign-in link has expired or was already used; start again."),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in again" })).toBeVisible();
  expect((await page.context().cookies(hurried.origin)).map((cookie) => cookie.name)).not.toContain(
    "mch_session",
  );
});

test("an ID token meant for another application is refused without the library's words", async ({
  page,
}) => {
  await reachProviderForm(page, mixedUp.origin);
  await submitProviderForm(page, mixedUp.origin, "ada");
  await expect(
    page.getByRole("heading", { name: "The sign-in could not be checked" }),
  ).toBeVisible();
  await expect(page.getByText("meant for another application")).toBeVisible();
  await expect(page.locator("body")).not.toContainText(/aud|JWT|OAUTH_/);
  expect((await page.context().cookies(mixedUp.origin)).map((cookie) => cookie.name)).not.toContain(
    "mch_session",
  );
  // The operator's log says which check failed.
  await expect
    .poll(() => mixedUp.output())
    .toContain('unexpected JWT \\"aud\\" (audience) claim value');
});

test("a person outside the allowed domain is told which account and which domain", async ({
  page,
}) => {
  await reachProviderForm(page, host.origin);
  await submitProviderForm(page, host.origin, "bob");
  await expect(
    page.getByRole("heading", { name: "This account is not allowed here" }),
  ).toBeVisible();
  await expect(
    page.getByText(
      "Your account bob@other.org is not allowed here; sign in with an account of example.com, or ask the operator of this host to let your account in.",
    ),
  ).toBeVisible();
  // "Sign in with another account" asks the provider again, and Ada gets in.
  await page.getByRole("link", { name: "Sign in with another account" }).click();
  await expect(page.getByLabel("Account")).toBeEditable();
  await submitProviderForm(page, host.origin, "ada");
  await expectChatReady(page);
});
