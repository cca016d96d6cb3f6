// A UDP listener on 127.0.0.1 that records every datagram, standing in for a TURN or STUN server
// an attacker runs: WebRTC's ICE gathering sends it packets (with the TURN user name in them) even
// under `connect-src 'none'`, unless the page has no way to make a peer connection.
import { createSocket } from "node:dgram";

/** A running UDP recorder. */
export interface UdpRecorder {
  /** The port it listens on, on 127.0.0.1. */
  port: number;
  /** Every datagram received so far, as Latin-1 text. */
  readonly packets: readonly string[];
  /** Stops listening. */
  close(): Promise<void>;
}

/**
 * Starts a UDP recorder on 127.0.0.1, port 0.
 *
 * @returns its port, what it received, and a way to close it.
 */
export async function startUdpRecorder(): Promise<UdpRecorder> {
  const socket = createSocket("udp4");
  const packets: string[] = [];
  socket.on("message", (message) => packets.push(message.toString("latin1")));
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(0, "127.0.0.1", () => resolve());
  });
  return {
    port: socket.address().port,
    packets,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
