/** How long a server's question waits for the person by default, in seconds (5 minutes). */
export const DEFAULT_ELICITATION_TIMEOUT_SECONDS = 300;

/**
 * How long a server's question waits for the person: the code's `elicitationTimeout`, else the
 * `ELICITATION_TIMEOUT` environment variable, else 300 seconds.
 *
 * @param option - `HostServerOptions.elicitationTimeout`, in seconds.
 * @param environment - the value of `ELICITATION_TIMEOUT`, if set.
 * @returns the timeout in milliseconds.
 * @throws {Error} when the chosen value is not a number of seconds above 0.
 */
export function elicitationTimeoutMs(option: number | undefined, environment?: string): number {
  const setting =
    option ?? (environment === undefined || environment === "" ? undefined : environment);
  if (setting === undefined) return DEFAULT_ELICITATION_TIMEOUT_SECONDS * 1_000;
  const seconds = Number(setting);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new Error(
      `elicitationTimeout (or ELICITATION_TIMEOUT) must be a number of seconds above 0, not "${String(setting)}".`,
    );
  }
  return Math.round(seconds * 1_000);
}
