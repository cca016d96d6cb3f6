import type { Logger } from "pino";
import { HostSession } from "./host-session";
import type { Session } from "./session/session";
import type { SessionUser } from "./session/session-context";
import type { SessionServices } from "./session/session-services";

/** The function run once per session to set up its chats and panes (`HostServerOptions.session`). */
export type SessionFunction = (session: Session) => void | Promise<void>;

/**
 * The live sessions of the server, one per signed-in browser tab. A tab that reconnects within
 * the grace period finds its session (running replies, cards, approvals) as it left it; after
 * that the session ends and its sources close. An interface of its own so that a registry shared
 * by several nodes can follow.
 */
export class SessionRegistry {
  readonly #sessions = new Map<
    string,
    { session: HostSession; setup: Promise<void>; timer: NodeJS.Timeout | null; sockets: number }
  >();

  constructor(
    private readonly services: SessionServices,
    private readonly setup: SessionFunction,
    private readonly options: { graceMs: number; logger: Logger },
  ) {}

  /**
   * The session of a tab, made (and its session function run) on first connection.
   *
   * @param key - stable per tab: the sign-in session and the tab's own id.
   * @throws what the session function throws (the session is not kept then).
   */
  async obtain(key: string, user: SessionUser): Promise<HostSession> {
    const existing = this.#sessions.get(key);
    if (existing && !existing.session.ended) {
      if (existing.timer) clearTimeout(existing.timer);
      existing.timer = null;
      existing.sockets += 1;
      await existing.setup;
      return existing.session;
    }
    const session = new HostSession(key, user, this.services);
    // The person's own servers join the chats the session function made, before any tab
    // attaches a card.
    const setup = Promise.resolve()
      .then(() => this.setup(session))
      .then(() => session.servers.connectors.load());
    const entry = { session, setup, timer: null, sockets: 1 };
    this.#sessions.set(key, entry);
    try {
      await setup;
    } catch (error) {
      this.#sessions.delete(key);
      await session.end();
      throw error;
    }
    return session;
  }

  /** A tab's socket went away; the session ends after the grace period unless it comes back. */
  release(key: string): void {
    const entry = this.#sessions.get(key);
    if (!entry) return;
    entry.sockets = Math.max(0, entry.sockets - 1);
    if (entry.sockets > 0 || entry.timer) return;
    entry.timer = setTimeout(() => {
      entry.timer = null;
      if (entry.sockets > 0) return;
      this.#sessions.delete(key);
      entry.session
        .end()
        .catch((error: unknown) =>
          this.options.logger.warn({ err: error, session: key }, "a session did not end cleanly"),
        );
    }, this.options.graceMs);
    entry.timer.unref();
  }

  /** The number of live sessions. */
  /** The live sessions of one person on this node (a person may have several browsers). */
  sessionsOf(userId: string): HostSession[] {
    return [...this.#sessions.values()]
      .map((entry) => entry.session)
      .filter((session) => session.user.id === userId && !session.ended);
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Ends every session (at shutdown). */
  async endAll(): Promise<void> {
    const entries = [...this.#sessions.values()];
    this.#sessions.clear();
    for (const entry of entries) if (entry.timer) clearTimeout(entry.timer);
    await Promise.allSettled(entries.map((entry) => entry.session.end()));
  }
}
