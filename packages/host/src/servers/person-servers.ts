// The person's MCP servers in one session, as the servers panel shows them: each server's state
// (connected, needs sign-in, signing in, failed with the reason, not started), the scopes and
// issuer of their sign-in, and Connect and Disconnect. When the person's grant for a server
// changes (on any node), the session drops that server's connection and lists its chats' tools
// again, so the tools appear or leave without a reload.
import type { ServerState, ServerStatus } from "@mcp-chat-host/protocol";
import type { ChatToolLists } from "../chat/chat-tools";
import { HostError } from "../host-error";
import type { ServerSignIn } from "../oauth/server-sign-in";
import { ServerSignInError } from "../oauth/sign-in-errors";
import { signInEntry } from "../oauth/sign-in-eligibility";
import type { SessionContext } from "../session/session-context";
import { signInRequiredIn, sourceAttachFailure } from "../sources/source-attach-failure";
import { notAConnector, PersonConnectors } from "./person-connectors";

/** The person's servers in one session. */
export class PersonServers {
  /** Servers whose sign-in the person started here and has not finished. */
  readonly #signingIn = new Set<string>();
  #announcing = false;
  /** The servers the person added themselves. */
  readonly connectors: PersonConnectors;

  constructor(
    private readonly context: SessionContext,
    private readonly tools: ChatToolLists,
    private readonly signIn: ServerSignIn | undefined,
  ) {
    this.connectors = new PersonConnectors(context, tools, signIn);
    context.sources.onChange(() => this.#announceSoon());
  }

  /** Every server of the session, with where it stands for this person. */
  async list(): Promise<ServerStatus[]> {
    const { services, sources, user } = this.context;
    const names = [...new Set([...services.configured.names(), ...sources.keys()])];
    const granted = new Set(
      this.signIn === undefined ? [] : await this.signIn.grantedServers(user.id).catch(() => []),
    );
    return Promise.all(names.map((name) => this.#status(name, granted.has(name))));
  }

  async #status(name: string, granted: boolean): Promise<ServerStatus> {
    const connector = this.connectors.entry(name);
    const entry = connector ?? this.context.services.configured.entry(name);
    const signInTo = this.signIn === undefined ? undefined : signInEntry(entry);
    const status: ServerStatus = {
      name,
      remote: entry?.kind === "remote",
      signIn: signInTo !== undefined,
      state: "idle",
      ...(connector === undefined ? {} : { connector: true as const }),
    };
    const source = this.context.sources.state(name);
    let state: ServerState = source.state === "failed" ? "failed" : source.state;
    if (source.state === "failed") {
      const needed = signInRequiredIn(source.error);
      if (needed !== undefined && signInTo !== undefined) {
        state = "needs-sign-in";
        status.reason = needed.message;
      } else {
        status.reason = sourceAttachFailure(name, source.error).message;
      }
    }
    if (this.#signingIn.has(name) && state !== "connected") state = "connecting";
    status.state = state;
    if (signInTo !== undefined && granted && this.signIn !== undefined) {
      const grant = await this.signIn.grantFacts(this.context.user.id, name).catch(() => null);
      if (grant !== null) Object.assign(status, grant);
    }
    return status;
  }

  /**
   * Starts the person's sign-in to a server.
   *
   * @returns the page the tab opens in a popup, or `connected` when no sign-in was needed.
   * @throws {HostError} for a server one does not sign in to, or the sign-in's own sentence.
   */
  async connect(name: string): Promise<{ authorizationUrl: string } | { connected: true }> {
    const entry = this.#entry(name);
    const source = this.context.sources.state(name);
    // A step-up: the server asked for more scope than the person granted.
    const needed = source.state === "failed" ? signInRequiredIn(source.error) : undefined;
    const scope = needed?.need === "scope" ? needed.scope : undefined;
    this.#signingIn.add(name);
    this.#announceSoon();
    try {
      const started = await this.signIn!.start(this.context.user.id, entry, scope);
      if ("connected" in started) {
        this.#signingIn.delete(name);
        return started;
      }
      return { authorizationUrl: started.startUrl };
    } catch (error) {
      this.#signingIn.delete(name);
      this.#announceSoon();
      if (error instanceof ServerSignInError) throw new HostError("refused", error.message);
      throw error;
    }
  }

  /**
   * Forgets the person's grant for a server (revoked first where the server offers it).
   *
   * @throws {HostError} for a server one does not sign in to.
   */
  async disconnect(name: string): Promise<{ disconnected: true; revoked: boolean }> {
    const entry = this.#entry(name);
    this.#signingIn.delete(name);
    const { revoked } = await this.signIn!.disconnect(this.context.user.id, entry);
    return { disconnected: true, revoked };
  }

  /**
   * Adds a server of the person's own (a connector, `host.connectors`).
   *
   * @returns its status (usually `needs-sign-in` once its chats tried it).
   * @throws {HostError} `refused` with the sentence saying why it was not added.
   */
  async addConnector(url: string): Promise<ServerStatus> {
    const name = await this.connectors.add(url);
    // The person's other sessions (on any node) add it too.
    this.signIn?.announceChanged(this.context.user.id, name);
    this.#announceSoon();
    const servers = await this.list();
    return servers.find((server) => server.name === name) ?? (await this.#status(name, false));
  }

  /**
   * Removes a server the person added: their grant is revoked (where the server offers it) and
   * forgotten, the connector is deleted and its tools leave the chats.
   *
   * @throws {HostError} `not_found` for a name that is not one of the person's connectors.
   */
  async removeConnector(name: string): Promise<{ removed: true }> {
    const entry = this.connectors.entry(name);
    if (entry === undefined || this.signIn === undefined) throw notAConnector(name);
    this.#signingIn.delete(name);
    await this.signIn.disconnect(this.context.user.id, entry).catch((error: unknown) => {
      this.context.logger.warn({ err: error, server: name }, "A removed server's grant stayed.");
    });
    await this.connectors.remove(name);
    // The person's other sessions (on any node) take it out too.
    this.signIn.announceChanged(this.context.user.id, name);
    this.#announceSoon();
    return { removed: true };
  }

  /**
   * The person's grant for a server changed (here or on another node): the session's connection
   * to it is dropped, and the chats that use it list their tools again.
   */
  async grantChanged(name: string): Promise<void> {
    this.#signingIn.delete(name);
    // A server the person added or removed in another session joins or leaves this one first.
    await this.connectors.sync();
    const { sources, chats, logger } = this.context;
    if (!sources.has(name)) {
      this.#announceSoon();
      return;
    }
    await sources.reset(name);
    for (const chat of chats.values()) {
      if (!chat.host?.sourceKeys.includes(name)) continue;
      await this.tools.list(chat).catch((error: unknown) => {
        logger.warn({ err: error, source: name }, "The chat's tools could not be listed again.");
      });
    }
    this.#announceSoon();
  }

  /** Sends `servers:state` once after the changes of this turn of the event loop. */
  #announceSoon(): void {
    if (this.#announcing) return;
    this.#announcing = true;
    setImmediate(() => {
      this.#announcing = false;
      this.list().then(
        (servers) => this.context.emit("servers:state", { servers }),
        (error: unknown) =>
          this.context.logger.warn({ err: error }, "The servers' states could not be told."),
      );
    });
  }

  #entry(name: string) {
    const entry =
      this.connectors.entry(name) ?? signInEntry(this.context.services.configured.entry(name));
    if (entry === undefined || this.signIn === undefined) {
      throw new HostError(
        "bad_request",
        `"${name.slice(0, 200)}" is not a server you sign in to here; its connection is set by the operator.`,
      );
    }
    return entry;
  }
}
