import { readFileSync } from "node:fs";
import { CliError } from "./cli-options";

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
  const token = environment["METRICS_TOKEN"];
  if (token !== undefined && token !== "") return token;
  const file = environment["METRICS_TOKEN_FILE"];
  if (file === undefined || file === "") return undefined;
  let content: string;
  try {
    content = readFileSync(file, "utf8").trim();
  } catch (error) {
    throw new CliError(
      `METRICS_TOKEN_FILE names "${file}", which can't be read (${(error as Error).message}).`,
    );
  }
  if (content === "") {
    throw new CliError(`METRICS_TOKEN_FILE names "${file}", which is empty; put the token in it.`);
  }
  return content;
}
