import { z } from "zod";
import { wireErrorSchema, type WireError } from "./wire-error";

/** Every socket acknowledgement: a value, or a {@link WireError}. */
export type Ack<T> = { ok: true; value: T } | { ok: false; error: WireError };

/** The callback a socket.io handler receives for an event with an acknowledgement. */
export type AckCallback<T> = (ack: Ack<T>) => void;

/** A successful acknowledgement. */
export function ackOk<T>(value: T): Ack<T> {
  return { ok: true, value };
}

/** A failed acknowledgement. */
export function ackError<T = never>(error: WireError): Ack<T> {
  return { ok: false, error };
}

/**
 * Schema of an acknowledgement whose value matches `value`.
 *
 * @param value - the schema of the successful value.
 * @returns a zod schema for `{ ok: true, value } | { ok: false, error }`.
 */
export function ackSchema<T extends z.ZodType>(value: T) {
  return z.discriminatedUnion("ok", [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), error: wireErrorSchema }),
  ]);
}

/** How long a caller waits for any acknowledgement before treating it as lost, in ms. */
export const ACK_TIMEOUT_MS = 30_000;

/** How long a caller waits for a card's tool call, which may ask the person first, in ms. */
export const CARD_CALL_ACK_TIMEOUT_MS = 10 * 60_000;
