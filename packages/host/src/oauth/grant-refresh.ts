// Keeping a person's access token usable: the bearer their connection to a server sends (the
// stored token, refreshed a minute before it expires, and again on a 401), and the refresh itself,
// made once however many sessions need it: one attempt per process, and the store's lock across
// the cluster, under which the grant is read again, so a refresh token is never redeemed twice.
import { auth, type AuthProvider, type FetchLike } from "@modelcontextprotocol/client";
import type { McpRemoteServerConfig } from "@mcp-chat-host/connection";
import type { Logger } from "pino";
import { safeError } from "./oauth-log";
import type { PersonOAuthProvider } from "./person-oauth-provider";
import { expiresSoon, type ServerGrant, type ServerGrants } from "./server-grant";
import { SignInRequired } from "./sign-in-errors";

/** What the refresh needs of the sign-in service. */
export interface GrantRefreshPorts {
  grants: ServerGrants;
  now: () => number;
  logger: Logger;
  /** The SDK provider for one run of `auth()` on a grant. */
  providerFor(
    entry: McpRemoteServerConfig,
    grant: ServerGrant,
    persist: (grant: ServerGrant) => Promise<void>,
  ): PersonOAuthProvider;
  /** The guarded fetch for a server's OAuth requests. */
  fetchFor(entry: McpRemoteServerConfig): FetchLike;
  /** A person's grant ended: tell their sessions. */
  changed(userId: string, server: string): void;
}

/** The bearers and refreshes of every person's grants. */
export class GrantRefresh {
  readonly #refreshing = new Map<string, Promise<ServerGrant | null>>();
  /** How many times each person's grant for each server changed here, so bearers read it again. */
  readonly #generations = new Map<string, number>();

  constructor(private readonly ports: GrantRefreshPorts) {}

  /** Notes that a person's grant changed: its bearers read it from the store again. */
  noteChanged(userId: string, server: string): void {
    const key = `${userId}\n${server}`;
    this.#generations.set(key, (this.#generations.get(key) ?? 0) + 1);
  }

  /**
   * The bearer a person's connection to a server sends: the stored access token, refreshed first
   * when it expires within a minute; on a 401, refreshed once (across the cluster) and tried again.
   *
   * @throws {SignInRequired} (from the transport's requests) when the person must sign in.
   */
  bearer(userId: string, entry: McpRemoteServerConfig): AuthProvider {
    let held: ServerGrant | null | undefined;
    let heldGeneration = -1;
    const key = `${userId}\n${entry.name}`;
    return {
      token: async () => {
        const generation = this.#generations.get(key) ?? 0;
        if (held === undefined || heldGeneration !== generation) {
          held = await this.ports.grants.load(userId, entry.name);
          heldGeneration = generation;
        }
        if (held?.tokens !== undefined && expiresSoon(held, this.ports.now())) {
          held = await this.refresh(userId, entry, held.tokens.access_token);
        }
        return held?.tokens?.access_token;
      },
      onUnauthorized: async () => {
        const sent = held?.tokens?.access_token;
        const before = held;
        held =
          sent === undefined
            ? await this.ports.grants.load(userId, entry.name)
            : await this.refresh(userId, entry, sent);
        if (held?.tokens === undefined) {
          throw new SignInRequired(
            entry.name,
            before?.tokens === undefined && sent === undefined ? "never" : "ended",
          );
        }
      },
    };
  }

  /**
   * Gets a new access token for the person's grant, once: concurrent callers in this process share
   * one attempt, and the store's lock makes other nodes wait and then read the refreshed grant.
   *
   * @param stale - the access token that was refused or is expiring.
   * @returns the grant after the refresh, or null when the person must sign in again.
   */
  refresh(
    userId: string,
    entry: McpRemoteServerConfig,
    stale: string | undefined,
  ): Promise<ServerGrant | null> {
    const key = `${userId}\n${entry.name}`;
    const running = this.#refreshing.get(key);
    if (running !== undefined) return running;
    const attempt = this.ports.grants
      .locked(userId, entry.name, () => this.#refreshHeld(userId, entry, stale))
      .finally(() => this.#refreshing.delete(key));
    this.#refreshing.set(key, attempt);
    return attempt;
  }

  async #refreshHeld(
    userId: string,
    entry: McpRemoteServerConfig,
    stale: string | undefined,
  ): Promise<ServerGrant | null> {
    const { grants, now, logger } = this.ports;
    const current = await grants.load(userId, entry.name);
    if (current?.tokens === undefined) return null;
    // Another session or node refreshed while this one waited for the lock.
    if (current.tokens.access_token !== stale && !expiresSoon(current, now())) return current;
    if (current.tokens.refresh_token === undefined) {
      await this.#forgetTokens(userId, entry.name);
      return null;
    }
    const provider = this.ports.providerFor(entry, current, async (grant) =>
      grants.save(userId, entry.name, grant),
    );
    let outcome: "AUTHORIZED" | "REDIRECT";
    try {
      outcome = await auth(provider, { serverUrl: entry.url, fetchFn: this.ports.fetchFor(entry) });
    } catch (error) {
      logger.warn(
        { server: entry.name, user: userId, err: safeError(error) },
        "A server sign-in could not be renewed.",
      );
      outcome = "REDIRECT";
    }
    if (outcome === "AUTHORIZED" && provider.grant.tokens !== undefined) {
      logger.info({ server: entry.name, user: userId }, "A server sign-in was renewed.");
      return provider.grant;
    }
    await this.#forgetTokens(userId, entry.name);
    return null;
  }

  /** Forgets a grant that can no longer be used, and tells the person's sessions. */
  async #forgetTokens(userId: string, server: string): Promise<void> {
    await this.ports.grants.delete(userId, server);
    this.ports.logger.info(
      { server, user: userId },
      "A server sign-in ended; the person must connect again.",
    );
    this.ports.changed(userId, server);
  }
}
