// A person's grant for one MCP server, as the host keeps it: the tokens, the client the host is at
// that authorization server, and what discovery found. It is sealed before it reaches the store
// (credential-seal.ts) and opened only in this process, never sent to the browser or logged.
import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import type { HostStore } from "../store/host-store";
import type { CredentialSeal } from "./credential-seal";

/** What the host keeps of a person's sign-in to one server. */
export interface ServerGrant {
  /** The tokens, stamped with the issuer that minted them; absent until signed in. */
  tokens?: StoredOAuthTokens;
  /** When `tokens` were received (ms), so `expires_in` can be read as a time. */
  obtainedAt?: number;
  /** The host's client at the authorization server (registered, metadata document or configured). */
  client?: StoredOAuthClientInformation;
  /** Where discovery led: the authorization server and its metadata, the resource metadata. */
  discovery?: OAuthDiscoveryState;
  /** When the person connected (ms). */
  connectedAt?: number;
}

/** How long before expiry a token is refreshed rather than sent (at most half its lifetime). */
const REFRESH_MARGIN_MS = 60_000;

/**
 * Whether a grant's access token is spent or about to be (and so should be refreshed first).
 *
 * @param grant - the grant.
 * @param now - the time (ms).
 * @returns true when the token expires within a minute (or half its lifetime); false without
 *   `expires_in`.
 */
export function expiresSoon(grant: ServerGrant, now: number): boolean {
  const seconds = grant.tokens?.expires_in;
  if (grant.obtainedAt === undefined || typeof seconds !== "number") return false;
  const lifetime = seconds * 1_000;
  return grant.obtainedAt + lifetime - Math.min(REFRESH_MARGIN_MS, lifetime / 2) <= now;
}

/** The grants of every person, sealed in the store. */
export class ServerGrants {
  constructor(
    private readonly store: HostStore,
    private readonly seal: CredentialSeal,
    private readonly now: () => number,
  ) {}

  /**
   * The person's grant for a server.
   *
   * @returns the grant, or null when they have none.
   * @throws {CredentialSealError} when the stored grant does not open (key lost or changed).
   */
  async load(userId: string, server: string): Promise<ServerGrant | null> {
    const record = await this.store.getServerGrant(userId, server);
    if (record === null) return null;
    return JSON.parse(this.seal.open(record.sealed, owner(userId, server))) as ServerGrant;
  }

  /** Seals and keeps the person's grant for a server. */
  async save(userId: string, server: string, grant: ServerGrant): Promise<void> {
    // A grant belongs to a person the store knows (one who has not opened a conversation yet too).
    await this.store.ensureUser(userId);
    await this.store.saveServerGrant({
      userId,
      server,
      sealed: this.seal.seal(JSON.stringify(grant), owner(userId, server)),
      updatedAt: this.now(),
    });
  }

  /** Forgets the person's grant for a server; true when there was one. */
  delete(userId: string, server: string): Promise<boolean> {
    return this.store.deleteServerGrant(userId, server);
  }

  /** The servers the person holds a grant for. */
  servers(userId: string): Promise<string[]> {
    return this.store.listServerGrants(userId);
  }

  /** Runs `work` holding the cluster-wide lock of one grant (see the store). */
  locked<T>(userId: string, server: string, work: () => Promise<T>): Promise<T> {
    return this.store.withServerGrantLock(userId, server, work);
  }

  /** Seals a sign-in in progress for the store's sign-in states (the same key, another owner). */
  sealPending(text: string): string {
    return this.seal.seal(text, "pending-server-sign-in");
  }

  /** Opens what {@link sealPending} sealed. */
  openPending(sealed: string): string {
    return this.seal.open(sealed, "pending-server-sign-in");
  }
}

/** The owner a grant is sealed for: a row moved to another person or server does not open. */
function owner(userId: string, server: string): string {
  return `server-grant\n${userId}\n${server}`;
}
