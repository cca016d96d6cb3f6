import { readFileSync } from "node:fs";
import { CliError } from "./cli-error";

/**
 * A secret the operator gives either directly or as a file, the way container secrets are
 * mounted: the variable `name`, else the trimmed content of the file the variable `<name>_FILE`
 * names. The direct value wins when both are set.
 *
 * @param environment - the environment the secrets were withdrawn into (see `withdrawSecrets`).
 * @param name - the variable's name, e.g. `METRICS_TOKEN`.
 * @returns the secret, or undefined when neither variable is set (or both are empty).
 * @throws {CliError} when the file can't be read or holds nothing: a file the operator named
 *   and the host could not use must stop the start, not quietly turn the feature off.
 */
export function secretSetting(
  environment: Record<string, string | undefined>,
  name: string,
): string | undefined {
  const direct = environment[name];
  if (direct !== undefined && direct !== "") return direct;
  const variable = `${name}_FILE`;
  const file = environment[variable];
  if (file === undefined || file === "") return undefined;
  let content: string;
  try {
    content = readFileSync(file, "utf8").trim();
  } catch (error) {
    throw new CliError(
      `${variable} names "${file}", which can't be read (${(error as Error).message}).`,
    );
  }
  if (content === "") {
    throw new CliError(`${variable} names "${file}", which is empty; put the secret in it.`);
  }
  return content;
}
