/** Stable codes of {@link HttpLayerError}. */
export type HttpLayerErrorCode =
  /** Binding to a non-loopback address without auth configured. */
  | "unsafe_bind"
  /** An option has a value the layer cannot use. */
  | "bad_option"
  /** Something needs the listening port before `listen()` resolved. */
  | "not_listening"
  /** `listen()` was called twice, or after `close()`. */
  | "already_listening";

/**
 * A local error of the HTTP and socket layer (a programming or configuration mistake, never a
 * person's request). Its message says what to change.
 */
export class HttpLayerError extends Error {
  /** Stable code, for tests and callers that switch on it. */
  readonly code: HttpLayerErrorCode;

  /**
   * @param code - the stable code.
   * @param message - what went wrong and what to do about it.
   */
  constructor(code: HttpLayerErrorCode, message: string) {
    super(message);
    this.name = "HttpLayerError";
    this.code = code;
  }
}
