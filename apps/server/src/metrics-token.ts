import { secretSetting } from "./secret-setting";

/** Shorter tokens are accepted, with a warning: a scrape token is guessed as easily as it is short. */
export const SHORT_METRICS_TOKEN_CHARS = 16;

/**
 * The token that `GET /metrics` on the host's port asks for: `METRICS_TOKEN`, else the content
 * of the file `METRICS_TOKEN_FILE` names. None: `/metrics` is not served on that port.
 *
 * @param environment - the environment (secrets already withdrawn into it).
 * @returns the token, or undefined when neither variable is set.
 * @throws {CliError} for a file that can't be read or is empty.
 */
export function metricsTokenFrom(
  environment: Record<string, string | undefined>,
): string | undefined {
  return secretSetting(environment, "METRICS_TOKEN");
}
