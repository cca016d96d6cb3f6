/** Stable codes of {@link SandboxConfigurationError}. */
export type SandboxConfigurationErrorCode =
  | "invalid_host_origin"
  | "invalid_frame_ancestor"
  | "invalid_origin_template"
  | "invalid_source_label"
  | "invalid_signing_key";

/**
 * Thrown when the server hands this package a configuration it cannot build a safe sandbox
 * from (a host origin that is not an http(s) origin, an unusable `frame-ancestors` entry).
 * Input that arrives from an app or a URL never throws: it is dropped and reported instead.
 */
export class SandboxConfigurationError extends Error {
  override readonly name = "SandboxConfigurationError";

  /**
   * @param code - stable code the caller can switch on.
   * @param message - what is wrong and what to change in the configuration.
   */
  constructor(
    readonly code: SandboxConfigurationErrorCode,
    message: string,
  ) {
    super(message);
  }
}
