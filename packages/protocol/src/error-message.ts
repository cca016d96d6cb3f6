// The text of a thrown value. One definition for every part that reports a failure in a log line
// or in a sentence a person reads, so a thrown string, an object with a message or `undefined`
// reads the same everywhere and never as "[object Object]".

/**
 * The message of anything thrown or rejected with: an `Error`'s message (or any object's string
 * `message`), a string as it is, a number, boolean or bigint as text. An empty message, `null`,
 * `undefined` and objects without a message give `fallback`.
 *
 * @param error - what was caught.
 * @param fallback - the text when the value carries none; "unknown error" unless given.
 * @returns never empty unless `fallback` is; never throws.
 */
export function errorMessage(error: unknown, fallback = "unknown error"): string {
  let message: unknown;
  if (typeof error === "string") message = error;
  else if (typeof error === "number" || typeof error === "boolean" || typeof error === "bigint") {
    message = String(error);
  } else if (typeof error === "object" && error !== null && "message" in error) {
    try {
      message = error.message;
    } catch {
      message = undefined; // a getter that throws
    }
  }
  return typeof message === "string" && message !== "" ? message : fallback;
}
