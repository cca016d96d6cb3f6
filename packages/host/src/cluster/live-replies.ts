import { idSchema, type ServerEventName, type ServerEvents } from "@mcp-chat-host/protocol";
import type { Logger } from "pino";
import type { HostSocketServer } from "../server/http-layer";
import type { HostSession } from "../host-session";
import type { MessagePart } from "../store/host-store";
import { currentTraceparent, inRemoteSpan, inSpan } from "../telemetry/spans";

/** The event nodes ask each other with: "what does reply X say now?" */
const LIVE_REPLY_EVENT = "cluster:live-reply";

/** How long a node waits for the others' answers, in ms. */
const ANSWER_TIMEOUT_MS = 2_000;

/** The cross-node side of the socket server, loosely typed (its events are this file's own). */
interface ServerSide {
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  serverSideEmit(event: string, ...args: unknown[]): unknown;
}

/**
 * The replies being written on this node, and how to read a reply being written on any node.
 * A tab that opens a conversation whose reply another tab's session is writing gets the text
 * parts written so far (not only what was last saved), so the chunks that follow fit on it exactly.
 */
export class LiveReplies {
  readonly #writers = new Map<string, HostSession>();
  readonly #idle = new Set<() => void>();
  readonly #serverSide: ServerSide | null;

  /**
   * @param io - the socket server; with `clustered`, other nodes are asked through its adapter.
   * @param clustered - whether other nodes may exist (a Redis adapter is in use).
   * @param logger - told when a node's answer is unusable.
   */
  constructor(
    io: HostSocketServer,
    clustered: boolean,
    private readonly logger: Logger,
  ) {
    this.#serverSide = clustered ? (io as unknown as ServerSide) : null;
    // The asking node's W3C trace context comes after the id (absent while it traces nothing),
    // so the answer's span joins the asker's trace.
    this.#serverSide?.on(LIVE_REPLY_EVENT, (messageId: unknown, ...rest: unknown[]) => {
      const answer = rest.at(-1);
      if (typeof answer !== "function") return;
      const traceparent = rest.length > 1 ? rest[0] : undefined;
      inRemoteSpan(traceparent, "live-reply answer", {}, (span) => {
        const parsed = idSchema.safeParse(messageId);
        const parts = parsed.success ? this.local(parsed.data) : null;
        span.set({ "mcp_chat_host.live_reply.found": parts !== null });
        (answer as (parts: MessagePart[] | null) => void)(parts);
      });
    });
  }

  /** Follows a session's events: a reply starts being written, or stops. */
  track<E extends ServerEventName>(event: E, payload: ServerEvents[E], session: HostSession): void {
    if (event !== "message:created" && event !== "message:updated") return;
    const { message } = payload as ServerEvents["message:created"];
    if (message.role !== "assistant") return;
    if (message.status === "streaming") this.#writers.set(message.id, session);
    else if (this.#writers.delete(message.id) && this.#writers.size === 0) {
      for (const resolve of this.#idle) resolve();
      this.#idle.clear();
    }
  }

  /**
   * Waits until no reply is being written on this node, or `timeoutMs` passed.
   *
   * @returns true when none is being written.
   */
  idle(timeoutMs: number): Promise<boolean> {
    for (const [messageId, session] of this.#writers)
      if (session.ended) this.#writers.delete(messageId);
    if (this.#writers.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.#idle.delete(done);
        resolve(false);
      }, timeoutMs);
      this.#idle.add(done);
    });
  }

  /** The parts of a reply being written on this node, or null. */
  local(messageId: string): MessagePart[] | null {
    const session = this.#writers.get(messageId);
    if (!session) return null;
    if (session.ended) {
      this.#writers.delete(messageId);
      return null;
    }
    const live = session.turnService.liveReplies().find((message) => message.id === messageId);
    return live ? (live.parts as MessagePart[]) : null;
  }

  /** The parts of a reply being written on any node, or null when no node is writing it. */
  async anywhere(messageId: string): Promise<MessagePart[] | null> {
    const here = this.local(messageId);
    if (here !== null || this.#serverSide === null) return here;
    const serverSide = this.#serverSide;
    return inSpan(
      "live-reply ask",
      {},
      async (span) => {
        const answers = await new Promise<unknown[]>((resolve) => {
          // Each node answers with what it has; one that is gone (or Redis being down) costs at
          // most the wait, and then the saved text will do: a tab whose deltas do not follow it
          // asks for a fresh snapshot.
          const timer = setTimeout(() => resolve([]), ANSWER_TIMEOUT_MS);
          const traceparent = currentTraceparent();
          const onAnswers = (error: unknown, found: unknown) => {
            clearTimeout(timer);
            if (error) this.logger.debug({ err: error, messageId }, "not every node answered");
            resolve(Array.isArray(found) ? found : []);
          };
          if (traceparent === undefined)
            serverSide.serverSideEmit(LIVE_REPLY_EVENT, messageId, onAnswers);
          else serverSide.serverSideEmit(LIVE_REPLY_EVENT, messageId, traceparent, onAnswers);
        });
        const found = answers.find(isParts) ?? null;
        span.set({
          "mcp_chat_host.live_reply.found": found !== null,
          "mcp_chat_host.live_reply.answers": answers.length,
        });
        return found;
      },
      "client",
    );
  }
}

/** Whether another node's answer is a list of message parts (each an object with a `type`). */
function isParts(value: unknown): value is MessagePart[] {
  return (
    Array.isArray(value) &&
    value.every(
      (part) =>
        typeof part === "object" &&
        part !== null &&
        typeof (part as { type?: unknown }).type === "string",
    )
  );
}
