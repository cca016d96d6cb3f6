/** Size caps shared by both sides of the socket. The server enforces them; the browser helps. */
export const limits = {
  /** Largest socket.io message the server accepts, in bytes. */
  maxPayloadBytes: 1_048_576,
  /** Longest message a person may send, in characters. */
  maxMessageChars: 32_000,
  /** Longest conversation title, in characters. */
  maxTitleChars: 200,
  /** Longest id of any kind (conversation, chat, card, approval), in characters. */
  maxIdChars: 200,
  /** Most page hashes a `card:attach` may name as already held by the browser. */
  maxKnownViews: 16,
  /** Largest JSON of a card's page request (arguments, report, log data), in characters. */
  maxCardPayloadChars: 256_000,
  /** Longest refusal reason a person can type, in characters. */
  maxReasonChars: 2_000,
  /** Most server resources one message may carry. */
  maxAttachments: 5,
} as const;
