/** A command line that cannot be used; the message says what to change. */
export class CliError extends Error {
  override readonly name = "CliError";
}
