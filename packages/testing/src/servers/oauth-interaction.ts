// The authorization server's own sign-in and consent pages (`/interaction/<uid>`): a one-field
// sign-in form, then a consent page that lists, in plain text, the scopes the client asked for,
// with "Allow" and "Deny". "Deny" ends the flow with `access_denied` at the client's redirect URI.
import { errorMessage } from "@mcp-chat-host/protocol";
import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import type { InteractionDetails } from "oidc-provider";
import { escapeHtml, formBody, page } from "./html-page";

/** What the interaction pages report to the server that owns them. */
export interface InteractionHooks {
  /** Whether this login may sign in. */
  knows(login: string): boolean;
  /** A sign-in form was submitted (known or not). */
  signedIn(login: string): void;
  /** A grant was saved for this account (so it can be revoked later). */
  granted(accountId: string, grantId: string): void;
}

/** The scopes a consent prompt asks for, OIDC ones and each resource's, without repeats. */
function askedScopes(details: Record<string, unknown>): {
  oidc: string[];
  byResource: Record<string, string[]>;
} {
  const oidc = Array.isArray(details.missingOIDCScope)
    ? details.missingOIDCScope.filter((scope): scope is string => typeof scope === "string")
    : [];
  const byResource: Record<string, string[]> = {};
  const missing = details.missingResourceScopes;
  if (typeof missing === "object" && missing !== null) {
    for (const [resource, scopes] of Object.entries(missing)) {
      if (Array.isArray(scopes)) {
        byResource[resource] = scopes.filter((scope): scope is string => typeof scope === "string");
      }
    }
  }
  return { oidc, byResource };
}

function send(response: ServerResponse, status: number, html: string): void {
  response.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  response.end(html);
}

function loginPage(uid: string, notice: string): string {
  return page(
    "Sign in to the test authorization server",
    `${notice}<form method="post" action="/interaction/${escapeHtml(uid)}"><label>Account <input name="login" autofocus></label> <button type="submit">Sign in</button></form>`,
  );
}

function consentPage(uid: string, clientId: string, details: Record<string, unknown>): string {
  const { oidc, byResource } = askedScopes(details);
  const all = [...new Set([...oidc, ...Object.values(byResource).flat()])];
  const list =
    all.length === 0
      ? "<p>No new scopes.</p>"
      : `<ul>${all.map((scope) => `<li>${escapeHtml(scope)}</li>`).join("")}</ul>`;
  const resources = Object.keys(byResource)
    .map((resource) => `<p>For ${escapeHtml(resource)}</p>`)
    .join("");
  return page(
    "Allow access?",
    `<p>${escapeHtml(clientId)} asks for these scopes:</p>${list}${resources}<form method="post" action="/interaction/${escapeHtml(uid)}"><button type="submit" name="decision" value="allow">Allow</button> <button type="submit" name="decision" value="deny">Deny</button></form>`,
  );
}

async function consent(
  provider: Provider,
  request: IncomingMessage,
  response: ServerResponse,
  hooks: InteractionHooks,
  details: InteractionDetails,
): Promise<void> {
  const decision = (await formBody(request)).get("decision");
  if (decision !== "allow") {
    await provider.interactionFinished(
      request,
      response,
      { error: "access_denied", error_description: "The account holder denied the request." },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  const accountId = details.session?.accountId;
  const clientId = details.params.client_id;
  if (accountId === undefined || typeof clientId !== "string") {
    throw new Error("There is no signed-in account for this consent.");
  }
  const existing =
    details.grantId === undefined ? undefined : await provider.Grant.find(details.grantId);
  const grant = existing ?? new provider.Grant({ accountId, clientId });
  const { oidc, byResource } = askedScopes(details.prompt.details);
  if (oidc.length > 0) grant.addOIDCScope(oidc.join(" "));
  for (const [resource, scopes] of Object.entries(byResource)) {
    grant.addResourceScope(resource, scopes.join(" "));
  }
  const grantId = await grant.save();
  hooks.granted(accountId, grantId);
  await provider.interactionFinished(
    request,
    response,
    { consent: { grantId } },
    { mergeWithLastSubmission: true },
  );
}

/**
 * Serves one request to `/interaction/<uid>`: the sign-in form or the consent page on GET, the
 * submitted form on POST. An unknown login is shown the form again with a notice.
 *
 * @param provider - the running oidc-provider.
 * @param request - the request.
 * @param response - the response.
 * @param uid - the interaction id from the path.
 * @param hooks - who may sign in, and where sign-ins and grants are reported.
 */
export async function serveInteraction(
  provider: Provider,
  request: IncomingMessage,
  response: ServerResponse,
  uid: string,
  hooks: InteractionHooks,
): Promise<void> {
  try {
    const details = await provider.interactionDetails(request, response);
    if (details.uid !== uid) throw new Error("The interaction does not match this page.");
    const clientId = typeof details.params.client_id === "string" ? details.params.client_id : "";
    if (details.prompt.name === "consent") {
      if (request.method === "POST") {
        await consent(provider, request, response, hooks, details);
        return;
      }
      send(response, 200, consentPage(details.uid, clientId, details.prompt.details));
      return;
    }
    if (request.method !== "POST") {
      send(response, 200, loginPage(details.uid, ""));
      return;
    }
    const login = (await formBody(request)).get("login") ?? "";
    hooks.signedIn(login);
    if (!hooks.knows(login)) {
      send(
        response,
        200,
        loginPage(details.uid, `<p role="alert">No account ${escapeHtml(login)}.</p>`),
      );
      return;
    }
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId: login } },
      { mergeWithLastSubmission: false },
    );
  } catch (error) {
    response.writeHead(400, { "content-type": "text/plain; charset=utf-8" });
    response.end(`The sign-in could not go on: ${errorMessage(error)}`);
  }
}
