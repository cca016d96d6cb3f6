// `mcp-chat-host sign-in`: prints a new one-time sign-in URL of the server running with a data
// folder, asked for over that folder's control socket; no restart needed.
import { errorMessage } from "@mcp-chat-host/protocol";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { CliError } from "./cli-options";
import { askControlSocket, ControlSocketError } from "./control-socket";
import { signInAnswerSchema } from "./sign-in-control";

/** The `sign-in --help` text. */
const signInUsage = `mcp-chat-host sign-in: print a new one-time sign-in URL of the running server

Usage: mcp-chat-host sign-in [--data <dir>]
       npm run sign-in -- [--data <dir>]      (in a clone of the repository)

Asks the server started with the same data folder for a fresh URL over its control socket
(<data>/control.sock, which only the user who started the server can reach), so another browser
can sign in without a restart. Each URL works once; the URLs printed before stay valid until used
(the 16 newest unused ones).

Options:
  --data <dir>   the server's data folder (default ./data)
  -h, --help     show this text`;

/** What `sign-in` was asked for. */
export interface SignInOptions {
  /** The data folder, resolved. */
  data: string;
  help: boolean;
}

/**
 * Reads the `sign-in` command line.
 *
 * @param argv - the arguments after `sign-in`.
 * @throws {CliError} for unknown options.
 */
function parseSignInOptions(argv: string[]): SignInOptions {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { data: { type: "string" }, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: false,
    });
    return { data: resolve(values.data ?? "./data"), help: values.help === true };
  } catch (error) {
    throw new CliError(`${errorMessage(error)}\n\n${signInUsage}`);
  }
}

/** Where the command writes. */
export interface TextOutput {
  write(text: string): unknown;
}

/**
 * Runs `sign-in`: asks the server for a new URL and prints it.
 *
 * @param argv - the arguments after `sign-in`.
 * @param output - where the URL goes (stdout).
 * @returns the URL (null for `--help`).
 * @throws {CliError} when no server runs with that data folder, the socket is another user's,
 *   the server uses a trusted header (no sign-in tokens), or its answer is malformed.
 */
export async function runSignInCommand(
  argv: string[],
  output: TextOutput = process.stdout,
): Promise<string | null> {
  const options = parseSignInOptions(argv);
  if (options.help) {
    output.write(`${signInUsage}\n`);
    return null;
  }
  let answer: unknown;
  try {
    answer = await askControlSocket(options.data, { command: "sign-in" });
  } catch (error) {
    if (error instanceof ControlSocketError) throw new CliError(error.message, { cause: error });
    throw error;
  }
  const parsed = signInAnswerSchema.safeParse(answer);
  if (!parsed.success) {
    throw new CliError(
      "The server's answer is not a sign-in URL; the server and this command may be of different versions.",
    );
  }
  if (!parsed.data.ok) throw new CliError(parsed.data.message);
  // The URL alone on its line, so a script can take it as it is.
  output.write(`${parsed.data.url}\n`);
  return parsed.data.url;
}
