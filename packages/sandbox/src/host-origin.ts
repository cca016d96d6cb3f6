import { httpOrigin } from "@mcp-chat-host/protocol";
import { SandboxConfigurationError } from "./sandbox-error";

/**
 * Reduces the chat host's address to its origin (`http://127.0.0.1:3000`), the form every
 * comparison in this package uses.
 *
 * @param value - the host page's origin or any URL on it.
 * @returns the serialised origin, without a trailing slash.
 * @throws {SandboxConfigurationError} `invalid_host_origin` when the value is not an http(s) URL.
 */
export function normalizeHostOrigin(value: string): string {
  const origin = httpOrigin(value);
  if (origin === undefined) {
    throw new SandboxConfigurationError(
      "invalid_host_origin",
      `The host origin "${value}" is not an http(s) URL; pass the chat page's origin, e.g. "http://127.0.0.1:3000".`,
    );
  }
  return origin;
}
