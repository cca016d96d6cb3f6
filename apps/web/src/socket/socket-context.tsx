import { createContext, type ReactNode, useContext } from "react";
import type { HostSocket } from "./host-socket";

/** What the page's components reach through context: the socket and the banner's retry. */
export interface SocketContextValue {
  /** The page's one socket; the live cards use it too. */
  socket: HostSocket;
  /** Reconnects, or asks for the session snapshot again. */
  retry(): void;
}

const SocketContext = createContext<SocketContextValue | null>(null);

/** Gives the components below it the page's socket. */
export function SocketProvider(props: { value: SocketContextValue; children: ReactNode }) {
  return <SocketContext value={props.value}>{props.children}</SocketContext>;
}

/**
 * The page's socket and retry.
 *
 * @throws an Error when used outside a {@link SocketProvider}.
 */
export function useSocketContext(): SocketContextValue {
  const value = useContext(SocketContext);
  if (value === null) throw new Error("useSocketContext needs a SocketProvider above it.");
  return value;
}

/** The page's socket (see {@link useSocketContext}). */
export function useSocket(): HostSocket {
  return useSocketContext().socket;
}
