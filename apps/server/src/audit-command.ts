// `mcp-chat-host audit`: the operator's view of the audit of page calls, as JSON lines. It opens
// the data file read-only, so it works while the server runs and never changes anything.
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { type AuditFilter, type AuditRecord, openAuditReader } from "@mcp-chat-host/host";
import { errorMessage } from "@mcp-chat-host/protocol";
import { CliError } from "./cli-options";

/** The `audit --help` text. */
const auditUsage = `mcp-chat-host audit: print the audit of the apps' tool calls as JSON lines

Usage: npm start -- audit [options]

Each line is one call a card's view made: when, which user, session, conversation and card, the
app's source and tool, the verdict (allowed, refused, failed), the reason, and, when the person
was asked, how the question was settled (answeredBy person | remembered | nobody, the answer and
its scope). Oldest first. Reads the data file read-only; it works while the server runs.

Options:
  --data <dir>           the server's data folder (default ./data)
  --user <id>            only calls of this user
  --conversation <id>    only calls in this conversation
  --since <time>         only calls at or after <time>
  --until <time>         only calls before <time>
  --limit <n>            only the newest <n> of the calls that match
  -h, --help             show this text

<time> is an ISO date or date-time (2031-05-01, 2031-05-01T10:00:00Z), milliseconds since
the epoch, or an age: 30m, 12h, 7d, 2w (that long ago).`;

/** What `audit` was asked for. */
export interface AuditOptions {
  /** The data file to read. */
  file: string;
  filter: AuditFilter;
  help: boolean;
}

const ageUnits: Record<string, number> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/**
 * Reads a time of `--since` / `--until`.
 *
 * @param option - the option's name, for the message.
 * @param text - what was given.
 * @param now - the current time (ms).
 * @returns ms since the epoch.
 * @throws {CliError} for anything else.
 */
export function parseAuditTime(option: string, text: string, now: number): number {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const age = /^(\d+)([smhdw])$/.exec(trimmed);
  if (age?.[1] !== undefined && age[2] !== undefined) {
    return now - Number(age[1]) * (ageUnits[age[2]] ?? 0);
  }
  const parsed = Date.parse(trimmed);
  if (/^\d{4}-\d{2}-\d{2}/.test(trimmed) && Number.isFinite(parsed)) return parsed;
  throw new CliError(
    `${option} must be an ISO date or date-time (2031-05-01T10:00:00Z), milliseconds since the epoch, or an age such as 12h or 7d; not "${text}".`,
  );
}

/**
 * Reads the `audit` command line.
 *
 * @param argv - the arguments after `audit`.
 * @param now - the current time (for ages).
 * @throws {CliError} for unknown options and malformed values.
 */
export function parseAuditOptions(argv: string[], now: number = Date.now()): AuditOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        data: { type: "string" },
        user: { type: "string" },
        conversation: { type: "string" },
        since: { type: "string" },
        until: { type: "string" },
        limit: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new CliError(`${errorMessage(error)}\n\n${auditUsage}`);
  }
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1)) {
    throw new CliError(`--limit must be a whole number of at least 1, not "${values.limit}".`);
  }
  const filter: AuditFilter = {};
  if (values.user !== undefined) filter.userId = values.user;
  if (values.conversation !== undefined) filter.conversationId = values.conversation;
  if (values.since !== undefined) filter.since = parseAuditTime("--since", values.since, now);
  if (values.until !== undefined) filter.until = parseAuditTime("--until", values.until, now);
  if (limit !== undefined) filter.limit = limit;
  return {
    file: join(resolve(values.data ?? "./data"), "mcp-chat-host.db"),
    filter,
    help: values.help === true,
  };
}

/**
 * One audit record as a JSON line: times as ISO 8601 (UTC), the time first.
 *
 * @returns the line, without its newline.
 */
export function auditLine(record: AuditRecord): string {
  const { at, approval, ...rest } = record;
  return JSON.stringify({
    at: new Date(at).toISOString(),
    ...rest,
    ...(approval === undefined
      ? {}
      : {
          approval: {
            ...approval,
            ...(approval.answeredAt === undefined
              ? {}
              : { answeredAt: new Date(approval.answeredAt).toISOString() }),
          },
        }),
  });
}

/** What the command writes to; `write` returns false when the caller should wait for `drain`. */
export interface LineOutput {
  write(text: string): boolean;
  once(event: "drain", listener: () => void): unknown;
}

/**
 * Runs `audit`: prints every matching record as a JSON line, oldest first, waiting for the
 * output to drain so a large audit is never held in memory.
 *
 * @param argv - the arguments after `audit`.
 * @param output - where the lines go (stdout).
 * @returns how many records were printed (null for `--help`).
 * @throws {CliError} for a bad command line; StoreError when the data file cannot be read.
 */
export async function runAuditCommand(
  argv: string[],
  output: LineOutput = process.stdout,
): Promise<number | null> {
  const options = parseAuditOptions(argv);
  if (options.help) {
    output.write(`${auditUsage}\n`);
    return null;
  }
  const reader = openAuditReader(options.file);
  let printed = 0;
  try {
    for (const record of reader.entries(options.filter)) {
      printed += 1;
      if (!output.write(`${auditLine(record)}\n`)) {
        await new Promise<void>((resolveDrain) => output.once("drain", resolveDrain));
      }
    }
  } finally {
    reader.close();
  }
  return printed;
}
