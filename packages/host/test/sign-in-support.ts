// What the tests of people's sign-ins to remote servers share: a person's tab, waiting for a
// server's state, and connecting as a browser would — `server:connect`, the popup's start page
// (which sets the flow's cookie and goes on), the authorization server's own login and consent
// pages (driven by fetch), then the callback with that cookie.
import type { ServerStatus } from "@mcp-chat-host/protocol";
import { signInWithFetch } from "@mcp-chat-host/testing";
import { expect } from "vitest";
import type { TestClient, TestHost } from "./harness";

/** A person's tab of a host that tells people apart by a header, said hello. */
export async function tabOf(
  host: TestHost,
  person: string,
  tabId = `tab-${person}`,
): Promise<TestClient> {
  const client = await host.connect({ headers: { "x-test-user": person }, tabId });
  await client.value("session:hello", {});
  return client;
}

/** Waits (at most 5 s) until the server `name` is in `state` in the person's tab. */
export async function serverStateOf(
  client: TestClient,
  name: string,
  state: ServerStatus["state"],
): Promise<ServerStatus> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const found = (await client.value("servers:list", {})).find((server) => server.name === name);
    if (found?.state === state) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`"${name}" never reached the state ${state}.`);
}

/** The cookies a response set, as a browser would send them back. */
function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/** Options of {@link connectThroughBrowser}. */
export interface BrowserSignInOptions {
  consent?: "allow" | "deny";
  /** Looks at the authorization request before the person signs in. */
  scopeCheck?: (url: URL) => void;
}

/**
 * Connects the person to a server as the browser would.
 *
 * @returns the callback's answer: its status and page.
 */
export async function connectThroughBrowser(
  client: TestClient,
  name: string,
  login: string,
  options: BrowserSignInOptions = {},
): Promise<{ status: number; page: string }> {
  const answer = await client.value("server:connect", { name });
  if (!("authorizationUrl" in answer)) throw new Error("The server asked for no sign-in.");
  const start = await fetch(answer.authorizationUrl, { redirect: "manual" });
  expect(start.status).toBe(303);
  const authorizationUrl = new URL(start.headers.get("location") ?? "");
  options.scopeCheck?.(authorizationUrl);
  const callback = await signInWithFetch(authorizationUrl, login, {
    ...(options.consent === undefined ? {} : { consent: options.consent }),
  });
  const finished = await fetch(callback, {
    headers: { cookie: cookiesOf(start) },
    redirect: "manual",
  });
  return { status: finished.status, page: await finished.text() };
}
