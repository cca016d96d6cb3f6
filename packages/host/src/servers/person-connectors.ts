// The remote MCP servers one person added themselves (connectors), in one of their sessions:
// each address is checked against the operator's `host.connectors` (and its name resolved, the
// connection pinned to the address checked), kept in the store for this person only, and joined
// to every chat of the session as a source of the person's own, opened with their sign-in.
import type { McpRemoteServerConfig } from "@mcp-chat-host/connection";
import type { ChatToolLists } from "../chat/chat-tools";
import { routeElicitation } from "../elicitation/elicitation-routing";
import { HostError } from "../host-error";
import type { ServerSignIn } from "../oauth/server-sign-in";
import type { SessionContext } from "../session/session-context";
import { configSourceFactory } from "../sources/config-source";
import {
  checkConnectorUrl,
  connectorEntry,
  ConnectorUrlRefused,
  pinnedFetch,
  type CheckedConnectorUrl,
} from "./connector-url";

/** The most servers one person may add. */
const MAX_CONNECTORS = 20;

interface Attached {
  entry: McpRemoteServerConfig;
  /** Ends the pinned fetch's connections. */
  close: () => Promise<void>;
}

/** The person's own servers in one session. */
export class PersonConnectors {
  readonly #attached = new Map<string, Attached>();

  constructor(
    private readonly context: SessionContext,
    private readonly tools: ChatToolLists,
    private readonly signIn: ServerSignIn | undefined,
  ) {}

  /** Whether the person may add servers here, and the address patterns the operator allows. */
  policy(): { allowed: boolean; patterns: string[] } {
    const policy = this.context.services.connectors;
    if (policy === undefined || this.signIn === undefined) return { allowed: false, patterns: [] };
    return { allowed: true, patterns: [...policy.patterns] };
  }

  /** The entry of one of the person's connectors, or undefined when none has that name. */
  entry(name: string): McpRemoteServerConfig | undefined {
    return this.#attached.get(name)?.entry;
  }

  /**
   * Joins the person's stored connectors to the session (when it starts, before the tab attaches
   * cards). A stored address that no longer passes the check is left out, with a notice.
   */
  async load(): Promise<void> {
    const policy = this.context.services.connectors;
    if (policy === undefined || this.signIn === undefined) return;
    const { services, user, logger } = this.context;
    const records = await services.store.listConnectors(user.id).catch((error: unknown) => {
      logger.warn({ err: error }, "A person's servers could not be read.");
      this.context.emit("notice", {
        level: "warning",
        message: "Your own servers could not be read, so they are left out; reload to try again.",
      });
      return [];
    });
    for (const record of records) {
      try {
        await this.#attach(record.name, await checkConnectorUrl(record.url, policy));
      } catch (error) {
        logger.warn({ err: error, server: record.name }, "A person's server was left out.");
        const why = error instanceof ConnectorUrlRefused ? ` ${error.message}` : "";
        this.context.emit("notice", {
          level: "warning",
          message: `Your server "${record.name}" was left out of this session.${why}`,
        });
      }
    }
  }

  /**
   * Adds a server for this person: checks its address, names it after its host, keeps it and
   * joins it to the session's chats.
   *
   * @returns the new server's name.
   * @throws {HostError} `refused` with a sentence when adding servers is off, the address is
   *   refused, the person already added it, or they have as many as they may.
   */
  async add(value: string): Promise<string> {
    const policy = this.context.services.connectors;
    if (policy === undefined || this.signIn === undefined) {
      throw new HostError(
        "refused",
        "This host does not let people add servers of their own; ask its operator to add the server for everyone.",
      );
    }
    let checked: CheckedConnectorUrl;
    try {
      checked = await checkConnectorUrl(value, policy);
    } catch (error) {
      if (error instanceof ConnectorUrlRefused) throw new HostError("refused", error.message);
      throw error;
    }
    const same = [...this.#attached.values()].find(({ entry }) => entry.url === checked.url.href);
    if (same !== undefined) {
      throw new HostError("refused", `You already added this server, as "${same.entry.name}".`);
    }
    if (this.#attached.size >= MAX_CONNECTORS) {
      throw new HostError(
        "refused",
        `You have added ${MAX_CONNECTORS} servers, the most this host keeps for a person; remove one first.`,
      );
    }
    const name = this.#nameFor(checked.url);
    const { services, user } = this.context;
    // Saved with the person: their record may not exist before their first conversation.
    await services.store.ensureUser(user.id);
    await services.store.saveConnector({
      userId: user.id,
      name,
      url: checked.url.href,
      createdAt: services.now(),
    });
    await this.#attach(name, checked);
    return name;
  }

  /**
   * Removes one of the person's connectors: forgets it, leaves the chats' tools without it, and
   * closes its connection. (The caller revokes the person's grant first.)
   *
   * @throws {HostError} `not_found` when the person has no connector of that name.
   */
  async remove(name: string): Promise<void> {
    if (!this.#attached.has(name)) throw notAConnector(name);
    const { services, user } = this.context;
    await services.store.deleteConnector(user.id, name);
    await this.#detach(name);
  }

  /**
   * Follows what another session of the person changed: attaches the stored connectors this
   * session lacks and detaches the ones no longer stored.
   */
  async sync(): Promise<void> {
    const policy = this.context.services.connectors;
    if (policy === undefined || this.signIn === undefined) return;
    const { services, user, logger } = this.context;
    let records;
    try {
      records = await services.store.listConnectors(user.id);
    } catch (error) {
      logger.warn({ err: error }, "A person's servers could not be read again.");
      return;
    }
    const stored = new Set(records.map((record) => record.name));
    for (const name of [...this.#attached.keys()]) {
      if (!stored.has(name)) await this.#detach(name);
    }
    for (const record of records) {
      if (this.#attached.has(record.name)) continue;
      try {
        await this.#attach(record.name, await checkConnectorUrl(record.url, policy));
      } catch (error) {
        logger.warn({ err: error, server: record.name }, "A person's server was left out.");
      }
    }
  }

  /** Takes a connector out of this session: its chats, its source, its pinned connections. */
  async #detach(name: string): Promise<void> {
    const attached = this.#attached.get(name);
    if (attached === undefined) return;
    const { chats, sources, logger } = this.context;
    this.#attached.delete(name);
    for (const chat of chats.values()) {
      const keys = chat.host?.sourceKeys;
      if (keys === undefined || !keys.includes(name)) continue;
      keys.splice(keys.indexOf(name), 1);
    }
    await sources.forget(name);
    await attached.close();
    for (const chat of chats.values()) {
      if (!chat.host) continue;
      await this.tools.list(chat).catch((error: unknown) => {
        logger.warn({ err: error, chat: chat.key }, "The chat's tools could not be listed again.");
      });
    }
  }

  /** Ends the connectors' pinned connections (when the session ends, after its sources closed). */
  async close(): Promise<void> {
    const attached = [...this.#attached.values()];
    this.#attached.clear();
    await Promise.allSettled(attached.map((connector) => connector.close()));
  }

  /** Registers the connector's source in the session and adds it to every chat. */
  async #attach(name: string, checked: CheckedConnectorUrl): Promise<void> {
    const { sources, chats, hooks, user, logger } = this.context;
    const entry = connectorEntry(name, checked.url.href);
    const pinned = pinnedFetch(checked);
    sources.register(
      configSourceFactory(entry, {
        timeout: 60,
        authProvider: this.signIn!.bearer(user.id, entry),
        fetch: pinned.fetch,
        onElicitation: routeElicitation(logger),
      }),
    );
    this.#attached.set(name, { entry, close: pinned.close });
    for (const chat of chats.values()) {
      const host = chat.host;
      if (!host || host.sourceKeys.includes(name)) continue;
      host.sourceKeys.push(name);
      if (host.onAppCall !== null) hooks.add(name, host.onAppCall);
      await this.tools.list(chat).catch((error: unknown) => {
        logger.warn({ err: error, chat: chat.key }, "The chat's tools could not be listed again.");
      });
    }
  }

  /** The host's name, made unique among the session's sources and the configured servers. */
  #nameFor(url: URL): string {
    const { services, sources } = this.context;
    const base = url.hostname.replace(/^\[|\]$/g, "").slice(0, 180);
    const taken = (name: string) =>
      sources.has(name) || services.configured.entry(name) !== undefined;
    let name = base;
    for (let suffix = 2; taken(name); suffix += 1) name = `${base}-${suffix}`;
    return name;
  }
}

/** The refusal for a name that is not one of the person's own servers. */
export function notAConnector(name: string): HostError {
  return new HostError(
    "not_found",
    `"${name.slice(0, 200)}" is not a server you added; only those can be removed.`,
  );
}
