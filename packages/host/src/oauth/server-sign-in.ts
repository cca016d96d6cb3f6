// Signing people in to remote MCP servers with their own accounts: the bearer a person's
// connection sends (refreshed before expiry and on a 401, once across the cluster), the start of
// a sign-in (the page the person is sent to, checked), its finish at `/oauth/callback` (state,
// browser, `iss` and PKCE checked; the grant sealed and kept), and disconnecting (revoked where
// the authorization server offers it, then forgotten). The SDK's `auth()` does the protocol.
import { createHash, randomBytes } from "node:crypto";
import { auth, type AuthProvider } from "@modelcontextprotocol/client";
import { GrantRefresh } from "./grant-refresh";
import { safeError } from "./oauth-log";
import type { McpRemoteServerConfig } from "@mcp-chat-host/connection";
import type { Logger } from "pino";
import type { SignInStateOutcome } from "../store/host-store";
import { guardedOAuthFetch } from "./oauth-fetch";
import { isLoopbackHost } from "@mcp-chat-host/protocol";
import type { OAuthUrlPolicy } from "./oauth-url-policy";
import { PersonOAuthProvider } from "./person-oauth-provider";
import type { ServerGrant, ServerGrants } from "./server-grant";
import { revokeGrant } from "./revoke-grant";
import { signInFailure, signInFailureOf } from "./sign-in-errors";

/** Where the authorization server sends the person back, on the host's origin. */
export const OAUTH_CALLBACK_PATH = "/oauth/callback";
/** Where the popup starts: sets the flow's browser cookie, then goes to the sign-in page. */
export const OAUTH_START_PATH = "/oauth/start";
/** The host's Client ID Metadata Document (served when its origin is https). */
export const OAUTH_CLIENT_METADATA_PATH = "/oauth/client-metadata.json";

/** How long a started sign-in may take, in ms. */
const SIGN_IN_TIMEOUT_MS = 10 * 60_000;

/** Where sign-ins in progress are kept (the store's sign-in states, shared by every node). */
export interface PendingSignIns {
  saveSignInState(digest: string, data: string, expiresAt: number): Promise<void>;
  takeSignInState(digest: string, now: number): Promise<SignInStateOutcome>;
}

/** Options of {@link ServerSignIn}. */
export interface ServerSignInOptions {
  grants: ServerGrants;
  pending: PendingSignIns;
  /** The host's canonical origin (for the callback URL). */
  origin: () => string;
  /** Every origin of the host (never an OAuth endpoint). */
  hostOrigins: () => readonly string[];
  /** Accept authorization servers on loopback (`http:`) even for a server that is not. */
  allowLoopback?: boolean;
  /** A person's grant for a server changed (signed in, refreshed away, disconnected). */
  onGrantChanged: (userId: string, server: string) => void;
  logger: Logger;
  now: () => number;
}

/** A started sign-in: what the popup opens, on the host's origin. */
export interface StartedSignIn {
  /** `<origin>/oauth/start/<flow id>`. */
  startUrl: string;
}

/** What the callback finished. */
export interface FinishedSignIn {
  userId: string;
  server: string;
}

/** A sign-in in progress, sealed in the store's sign-in states. */
interface PendingFlow {
  userId: string;
  server: string;
  state: string;
  codeVerifier: string;
  grant: ServerGrant;
  authorizationUrl: string;
}

/** The digest a flow's state or id is kept under (the store never sees either). */
function digestOf(label: string, value: string): string {
  return createHash("sha256").update(`${label}\n${value}`).digest("base64url");
}

/** Signing people in to remote MCP servers, for the whole host. */
export class ServerSignIn {
  readonly #refresh: GrantRefresh;

  constructor(private readonly options: ServerSignInOptions) {
    this.#refresh = new GrantRefresh({
      grants: options.grants,
      now: options.now,
      logger: options.logger,
      providerFor: (entry, grant, persist) => this.#provider(entry, grant, persist),
      fetchFor: (entry) => this.#fetch(entry),
      changed: (userId, server) => this.#changed(userId, server),
    });
  }

  /**
   * Notes that a person's grant changed (here or, told by the cluster, on another node): every
   * bearer of it reads the grant from the store again before its next request.
   */
  noteChanged(userId: string, server: string): void {
    this.#refresh.noteChanged(userId, server);
  }

  /**
   * The bearer a person's connection to a server sends (see {@link GrantRefresh.bearer}).
   *
   * @throws {SignInRequired} (from the transport's requests) when the person must sign in.
   */
  bearer(userId: string, entry: McpRemoteServerConfig): AuthProvider {
    return this.#refresh.bearer(userId, entry);
  }

  /**
   * Tells every session of the person, on every node, that something about one of their servers
   * changed (a server they added or removed), as a changed grant is told.
   */
  announceChanged(userId: string, server: string): void {
    this.#changed(userId, server);
  }

  #changed(userId: string, server: string): void {
    this.noteChanged(userId, server);
    this.options.onGrantChanged(userId, server);
  }

  /** The redirect URI of every sign-in. */
  get redirectUrl(): string {
    return `${this.options.origin()}${OAUTH_CALLBACK_PATH}`;
  }

  /** The host's Client ID Metadata Document URL, when its origin is https. */
  get clientMetadataUrl(): string | undefined {
    const origin = this.options.origin();
    return origin.startsWith("https:") ? `${origin}${OAUTH_CLIENT_METADATA_PATH}` : undefined;
  }

  /**
   * Starts signing the person in: discovery, registration, and the authorization request (PKCE,
   * `state`, `resource`), whose page is checked before it is kept.
   *
   * @param scope - the scopes to ask for (a step-up's wider scope); default: what discovery says.
   * @returns the URL the popup opens, or `connected` when the person's grant still works.
   * @throws {ServerSignInError} with the sentence for the person.
   */
  async start(
    userId: string,
    entry: McpRemoteServerConfig,
    scope?: string,
  ): Promise<StartedSignIn | { connected: true }> {
    const { grants, pending, now } = this.options;
    const existing = (await grants.load(userId, entry.name)) ?? {};
    const state = randomBytes(32).toString("base64url");
    // The flow works on a copy and keeps nothing until the callback: a sign-in never finished
    // leaves no grant behind.
    const provider = this.#provider(
      entry,
      scope === undefined ? existing : withoutTokens(existing),
      async () => undefined,
      state,
    );
    let outcome: "AUTHORIZED" | "REDIRECT";
    try {
      outcome = await auth(provider, {
        serverUrl: entry.url,
        fetchFn: this.#fetch(entry),
        // The operator's scopes win over what the server's metadata lists.
        ...(scope === undefined
          ? entry.oauth?.scopes === undefined
            ? {}
            : { scope: entry.oauth.scopes.join(" ") }
          : { scope, forceReauthorization: true }),
      });
    } catch (error) {
      const failure = signInFailureOf(error, entry.name);
      this.options.logger.warn(
        { server: entry.name, user: userId, kind: failure.kind, err: safeError(error) },
        "A server sign-in could not start.",
      );
      throw failure;
    }
    if (outcome === "AUTHORIZED") {
      await grants.save(userId, entry.name, provider.grant);
      this.#changed(userId, entry.name);
      return { connected: true };
    }
    const authorizationUrl = provider.authorizationUrl;
    if (authorizationUrl === undefined) throw signInFailure("exchange-failed", entry.name);
    const flowId = randomBytes(32).toString("base64url");
    const flow: PendingFlow = {
      userId,
      server: entry.name,
      state,
      codeVerifier: provider.codeVerifier(),
      grant: provider.grant,
      authorizationUrl: authorizationUrl.href,
    };
    const sealed = grants.sealPending(JSON.stringify(flow));
    const expiresAt = now() + SIGN_IN_TIMEOUT_MS;
    try {
      await pending.saveSignInState(digestOf("server-sign-in.start", flowId), sealed, expiresAt);
      await pending.saveSignInState(digestOf("server-sign-in.state", state), sealed, expiresAt);
    } catch (error) {
      this.options.logger.error({ err: safeError(error) }, "A server sign-in could not be kept.");
      throw signInFailure("unavailable", entry.name);
    }
    this.options.logger.info({ server: entry.name, user: userId }, "A server sign-in started.");
    return { startUrl: `${this.options.origin()}${OAUTH_START_PATH}/${flowId}` };
  }

  /**
   * Takes a started sign-in by its flow id (once), for the popup's first page.
   *
   * @returns the page to send the person to and the state the browser is bound to.
   * @throws {ServerSignInError} for an unknown, expired or used flow.
   */
  async opened(flowId: string): Promise<{ authorizationUrl: string; state: string }> {
    const flow = await this.#take("server-sign-in.start", flowId);
    return { authorizationUrl: flow.authorizationUrl, state: flow.state };
  }

  /**
   * Finishes a sign-in at the callback: the state names a flow this host started (once), the
   * authorization response's `iss` is checked, the code is redeemed with the PKCE verifier, and
   * the grant is sealed and kept.
   *
   * @param params - the callback's query.
   * @param entryOf - the server configuration by name (the flow names it) and the person whose
   *   flow it is (a server they added themselves is theirs alone).
   * @returns whose sign-in to which server finished.
   * @throws {ServerSignInError} with the sentence for the person.
   */
  async finish(
    params: URLSearchParams,
    entryOf: (
      server: string,
      userId: string,
    ) => McpRemoteServerConfig | undefined | Promise<McpRemoteServerConfig | undefined>,
  ): Promise<FinishedSignIn> {
    const state = params.get("state");
    if (state === null || state === "") throw signInFailure("unknown-state");
    const flow = await this.#take("server-sign-in.state", state);
    const entry = await entryOf(flow.server, flow.userId);
    if (entry === undefined) throw signInFailure("unknown-state", flow.server);
    const error = params.get("error");
    if (error !== null) {
      throw error === "access_denied"
        ? signInFailure("denied", flow.server)
        : signInFailure("provider-error", flow.server, error);
    }
    const code = params.get("code");
    if (code === null || code === "") throw signInFailure("provider-error", flow.server, "no_code");
    const { grants, now } = this.options;
    const provider = this.#provider(
      entry,
      flow.grant,
      (grant) => grants.save(flow.userId, flow.server, { ...grant, connectedAt: now() }),
      undefined,
      flow.codeVerifier,
    );
    try {
      const iss = params.get("iss");
      await auth(provider, {
        serverUrl: entry.url,
        authorizationCode: code,
        ...(iss === null ? {} : { iss }),
        fetchFn: this.#fetch(entry),
      });
    } catch (failure) {
      const described = signInFailureOf(failure, flow.server);
      this.options.logger.warn(
        { server: flow.server, user: flow.userId, kind: described.kind, err: safeError(failure) },
        "A server sign-in could not finish.",
      );
      throw described;
    }
    this.options.logger.info(
      { server: flow.server, user: flow.userId },
      "A server sign-in finished.",
    );
    this.#changed(flow.userId, flow.server);
    return { userId: flow.userId, server: flow.server };
  }

  /** The servers the person holds a grant for. */
  grantedServers(userId: string): Promise<string[]> {
    return this.options.grants.servers(userId);
  }

  /**
   * What the servers panel shows of a person's grant: the scopes granted, the issuer, when.
   *
   * @returns the facts, or null without a usable grant.
   */
  async grantFacts(
    userId: string,
    server: string,
  ): Promise<{ scopes?: string[]; issuer?: string; connectedAt?: number } | null> {
    const grant = await this.options.grants.load(userId, server);
    if (grant?.tokens === undefined) return null;
    const scope = grant.tokens.scope;
    const issuer = grant.tokens.issuer ?? grant.discovery?.authorizationServerMetadata?.issuer;
    return {
      ...(typeof scope === "string" && scope !== "" ? { scopes: scope.split(" ") } : {}),
      ...(typeof issuer === "string" ? { issuer } : {}),
      ...(grant.connectedAt === undefined ? {} : { connectedAt: grant.connectedAt }),
    };
  }

  /**
   * Disconnects the person from a server: revokes the refresh (and access) token where the
   * authorization server has a revocation endpoint, then forgets the grant.
   *
   * @returns whether a token was revoked.
   */
  async disconnect(userId: string, entry: McpRemoteServerConfig): Promise<{ revoked: boolean }> {
    const grant = await this.options.grants.load(userId, entry.name).catch(() => null);
    let revoked = false;
    if (grant !== null) {
      try {
        revoked = await revokeGrant(grant, entry, this.#fetch(entry));
      } catch (error) {
        this.options.logger.warn(
          { server: entry.name, user: userId, err: safeError(error) },
          "A server sign-in could not be revoked; it is forgotten here all the same.",
        );
      }
    }
    await this.options.grants.delete(userId, entry.name);
    this.#changed(userId, entry.name);
    return { revoked };
  }

  async #take(label: string, value: string): Promise<PendingFlow> {
    let taken: SignInStateOutcome;
    try {
      taken = await this.options.pending.takeSignInState(
        digestOf(label, value),
        this.options.now(),
      );
    } catch {
      throw signInFailure("unavailable");
    }
    if (taken.outcome === "already-used") throw signInFailure("already-used");
    if (taken.outcome === "unknown") throw signInFailure("unknown-state");
    try {
      return JSON.parse(this.options.grants.openPending(taken.data)) as PendingFlow;
    } catch {
      throw signInFailure("unknown-state");
    }
  }

  #provider(
    entry: McpRemoteServerConfig,
    grant: ServerGrant,
    persist: (grant: ServerGrant) => Promise<void>,
    state?: string,
    codeVerifier?: string,
  ): PersonOAuthProvider {
    return new PersonOAuthProvider({
      entry,
      redirectUrl: this.redirectUrl,
      clientMetadataUrl: this.clientMetadataUrl,
      grant,
      persist,
      policy: this.#policy(entry),
      ...(state === undefined ? {} : { state }),
      ...(codeVerifier === undefined ? {} : { codeVerifier }),
      now: this.options.now,
    });
  }

  #policy(entry: McpRemoteServerConfig): OAuthUrlPolicy {
    return {
      // A server the operator runs on this machine may have its authorization server here too.
      allowLoopback:
        this.options.allowLoopback === true || isLoopbackHost(new URL(entry.url).hostname),
      hostOrigins: this.options.hostOrigins(),
    };
  }

  #fetch(entry: McpRemoteServerConfig) {
    return guardedOAuthFetch(entry.name, this.#policy(entry));
  }
}

/** A grant without its tokens (a step-up asks for a new authorization, not a refresh). */
function withoutTokens(grant: ServerGrant): ServerGrant {
  const { tokens: _tokens, obtainedAt: _obtained, ...rest } = grant;
  return rest;
}
