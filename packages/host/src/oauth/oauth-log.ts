// What the log is told of a failed OAuth step: the error's name and message, cut short, never a
// response body (which could carry a token).

/** An error for the log: its name and message, never a token-bearing body. */
export function safeError(error: unknown): { name: string; message: string } {
  return error instanceof Error
    ? { name: error.name, message: error.message.slice(0, 300) }
    : { name: "unknown", message: String(error).slice(0, 300) };
}
