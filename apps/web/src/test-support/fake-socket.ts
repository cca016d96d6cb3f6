import type {
  Ack,
  ClientEventName,
  ClientEventValues,
  ClientPayload,
  ServerEventName,
  ServerEvents,
} from "@mcp-chat-host/protocol";
import type { HostSocket, HostSocketListeners, TimedEmitter } from "../socket/host-socket";

/** One event the page sent. */
export interface EmittedEvent {
  event: ClientEventName;
  payload: unknown;
  timeoutMs: number;
}

type Responder<E extends ClientEventName> = (
  payload: ClientPayload<E>,
) => Ack<ClientEventValues[E]> | Promise<Ack<ClientEventValues[E]>>;

/**
 * A stand-in for the page's socket in unit tests: records what the page sends, answers with the
 * responders a test set (an event without one fails as a timeout would), and lets the test play
 * the server's events and the connection's events.
 */
export class FakeSocket implements HostSocket {
  connected = true;
  readonly emitted: EmittedEvent[] = [];
  connectCalls = 0;
  private readonly listeners = new Map<string, Set<(...args: never[]) => void>>();
  private readonly responders = new Map<string, Responder<ClientEventName>>();

  on<E extends keyof HostSocketListeners>(event: E, listener: HostSocketListeners[E]): void {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener as (...args: never[]) => void);
    this.listeners.set(event, set);
  }

  off<E extends keyof HostSocketListeners>(event: E, listener: HostSocketListeners[E]): void {
    this.listeners.get(event)?.delete(listener as (...args: never[]) => void);
  }

  timeout(milliseconds: number): TimedEmitter {
    return {
      emitWithAck: async <E extends ClientEventName>(event: E, payload: ClientPayload<E>) => {
        this.emitted.push({ event, payload, timeoutMs: milliseconds });
        const responder = this.responders.get(event) as Responder<E> | undefined;
        if (responder === undefined) throw new Error("operation has timed out");
        return responder(payload);
      },
    };
  }

  connect(): void {
    this.connectCalls++;
  }

  /** Sets how the "server" answers an event. */
  respond<E extends ClientEventName>(event: E, responder: Responder<E>): this {
    this.responders.set(event, responder as unknown as Responder<ClientEventName>);
    return this;
  }

  /** Plays a server event to the page. */
  serverEmit<E extends ServerEventName>(event: E, payload: ServerEvents[E]): void {
    this.fire(event, payload);
  }

  /** Plays a connection event (`connect`, `disconnect`, `connect_error`). */
  fire(event: string, ...args: unknown[]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      (listener as (...values: unknown[]) => void)(...args);
    }
  }

  /** How many listeners an event has (to check that listeners are removed). */
  listenerCount(event: string): number {
    return this.listeners.get(event)?.size ?? 0;
  }

  /** The payloads sent with one event, in order. */
  sent<E extends ClientEventName>(event: E): ClientPayload<E>[] {
    return this.emitted
      .filter((entry) => entry.event === event)
      .map((entry) => entry.payload as ClientPayload<E>);
  }
}
