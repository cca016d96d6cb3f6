// A real Postgres for tests: Debian's `postgresql` binaries, a fresh cluster made by `initdb` in a
// temporary folder, served on 127.0.0.1 and a free port with its unix socket in that folder.
// Postgres refuses to run as root, so under root it runs as the `postgres` user Debian's package
// creates. The server never outlives the test process (see `spawnTied`); `stop()` removes the folder.
import { execFile, execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { makeServerCertificate, type ServerCertificate } from "./test-certificate";
import { freePort, spawnTied, waitForOutput, type TiedProcess } from "./tied-process";

const run = promisify(execFile);

/** How a test Postgres is started. Every field has a default. */
export interface PostgresOptions {
  /** The folder holding `initdb` and `postgres`; default `$POSTGRES_BIN`, else Debian's. */
  readonly binaryFolder?: string;
  /** The port; default a free one. */
  readonly port?: number;
  /**
   * Flush every commit to disk (`fsync`, `full_page_writes`) as a production server does.
   * Default false: tests need no power-cut safety; a commit is still written to the log before
   * it is acknowledged, so neither a clean nor an immediate stop loses a committed write.
   * Benchmarks turn it on to measure what an operator gets.
   */
  readonly durable?: boolean;
  /** How long initdb plus a start, or a restart, may take, in ms; default 60,000. */
  readonly startTimeoutMs?: number;
  /**
   * A password for the `postgres` user, asked for on every TCP connection (scram-sha-256); the
   * URLs then carry it. Default none (trust authentication).
   */
  readonly password?: string;
  /**
   * Serve TLS (`ssl=on`) with a certificate for 127.0.0.1 and localhost, signed by a CA made for
   * this server with `openssl` (its certificate at `caFile`). Default false.
   */
  readonly tls?: boolean;
}

/** A running test Postgres. */
export interface RunningPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the superuser on the default database. */
  readonly url: string;
  /** The port; a restart keeps it. */
  readonly port: number;
  /** The temporary folder holding the cluster's data and its unix socket; `stop()` removes it. */
  readonly folder: string;
  /** With `tls`: the PEM file of the CA that signed the server's certificate. */
  readonly caFile: string | undefined;
  /**
   * Creates a new database and returns its URL.
   *
   * @param name - letters, digits and `_`; default a fresh `test_<n>`.
   * @param options - `template`: a database to copy (it must have no open connection), e.g. one
   *   already migrated; default an empty database.
   */
  createDatabase(name?: string, options?: { template?: string }): Promise<string>;
  /** Stops the server (if running) and removes its folder. */
  stop(): Promise<void>;
  /** Stops the server (a fast shutdown) and starts it again on the same port, keeping the data. */
  restart(): Promise<void>;
  /**
   * Stops the server at once, as a crash would: an immediate shutdown (no checkpoint; the next
   * start recovers from the log). `restart()` brings it back with every committed write.
   */
  stopAbruptly(): Promise<void>;
}

const installHint = [
  "Postgres is not installed: the tests need Debian's postgresql.",
  "Install it, then run the tests again:",
  "  Debian/Ubuntu:  sudo apt-get install -y postgresql   (or: node scripts/ensure-services.mjs as root)",
  "  elsewhere:      install Postgres and set POSTGRES_BIN to the folder holding initdb and postgres",
].join("\n");

/** The folder holding `initdb` and `postgres`, or throws how to install them. */
export function findPostgresBinaries(given?: string): string {
  const has = (folder: string) =>
    existsSync(join(folder, "initdb")) && existsSync(join(folder, "postgres"));
  const candidates: string[] = [];
  const chosen = given ?? process.env["POSTGRES_BIN"];
  if (chosen !== undefined && chosen !== "") candidates.push(chosen);
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((entry) => /^\d+$/.test(entry))
      .sort((first, second) => Number(second) - Number(first));
    candidates.push(...versions.map((version) => join(debian, version, "bin")));
  }
  try {
    candidates.push(execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim());
  } catch {
    // No pg_config on the PATH: the other candidates decide.
  }
  const found = candidates.find(has);
  if (found === undefined) throw new Error(installHint);
  return found;
}

/** The uid and gid to run Postgres as: the `postgres` user under root, else this process's. */
function serverIdentity(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    return { uid, gid };
  } catch {
    throw new Error(
      "Postgres refuses to run as root and there is no postgres user to run it as. " +
        "Install Debian's package, which creates it (sudo apt-get install -y postgresql), or run the tests as another user.",
    );
  }
}

let databases = 0;

/**
 * Starts a fresh Postgres on 127.0.0.1: `initdb` (trust authentication, UTF-8, C locale) in a
 * new temporary folder, then `postgres` on a free port, waiting (bounded) until it accepts
 * connections.
 *
 * @param options - where the binaries are, the port, durability and the start bound.
 * @returns the running server; call `stop()` when done.
 * @throws {Error} a sentence saying how to install Postgres when it is missing, or what it printed
 *   when it did not start.
 */
export async function startPostgres(options: PostgresOptions = {}): Promise<RunningPostgres> {
  const binaries = findPostgresBinaries(options.binaryFolder);
  const identity = serverIdentity();
  const port = options.port ?? (await freePort());
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  const folder = mkdtempSync(join(tmpdir(), "mcp-chat-host-postgres-"));
  const data = join(folder, "data");
  const durable = options.durable === true ? "on" : "off";
  let current: TiedProcess | undefined;
  let tls: ServerCertificate | undefined;

  async function launch(): Promise<void> {
    const tied = spawnTied(
      join(binaries, "postgres"),
      [
        ...["-D", data, "-p", String(port), "-k", folder],
        ...["-c", "listen_addresses=127.0.0.1"],
        // A commit is always written to the log before it is acknowledged, so a crash of the
        // server loses nothing committed; only the flush to disk is skipped unless durable.
        ...["-c", `fsync=${durable}`, "-c", `full_page_writes=${durable}`],
        // A prepared transaction keeps its locks across a restart, so a test can hold a row
        // locked while the server stops and know no waiter gets it meanwhile.
        ...["-c", "max_prepared_transactions=8"],
        ...(tls === undefined
          ? []
          : [
              ...["-c", "ssl=on", "-c", `ssl_cert_file=${tls.certFile}`],
              ...["-c", `ssl_key_file=${tls.keyFile}`],
            ]),
      ],
      { stdio: ["ignore", "pipe", "pipe"], cwd: folder, ...identity },
    );
    current = tied;
    const spawnError = new Promise<never>((_, reject) =>
      tied.child.once("error", (error) => reject(error)),
    );
    await Promise.race([
      waitForOutput(
        tied.child,
        /database system is ready to accept connections/,
        timeoutMs,
        "postgres",
      ),
      spawnError,
    ]);
    // Keep reading its log so a full pipe never blocks the server.
    tied.child.stdout?.resume();
    tied.child.stderr?.resume();
  }

  try {
    if (identity !== undefined) chownSync(folder, identity.uid, identity.gid);
    const passwordFile = join(folder, "password");
    if (options.password !== undefined) {
      writeFileSync(passwordFile, `${options.password}\n`, { mode: 0o600 });
      if (identity !== undefined) chownSync(passwordFile, identity.uid, identity.gid);
    }
    await run(
      join(binaries, "initdb"),
      [
        ...["-D", data, "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"],
        // The unix socket stays trusted (createdb below uses TCP with the password).
        ...(options.password === undefined
          ? ["--auth=trust"]
          : ["--auth-local=trust", "--auth-host=scram-sha-256", `--pwfile=${passwordFile}`]),
      ],
      { timeout: timeoutMs, cwd: folder, ...identity },
    );
    if (options.tls === true) tls = await makeServerCertificate(folder, identity, timeoutMs);
    await launch();
  } catch (error) {
    await current?.stop("SIGKILL");
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }

  const userInfo =
    options.password === undefined
      ? "postgres"
      : `postgres:${encodeURIComponent(options.password)}`;
  const address = (database: string) => `postgres://${userInfo}@127.0.0.1:${port}/${database}`;
  return {
    url: address("postgres"),
    port,
    folder,
    caFile: tls?.caFile,
    async createDatabase(name, createOptions = {}) {
      databases += 1;
      const database = name ?? `test_${process.pid}_${databases}`;
      const template = createOptions.template;
      for (const each of template === undefined ? [database] : [database, template]) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(each)) {
          throw new Error(`"${each}" is not a database name; use letters, digits and _.`);
        }
      }
      await run(
        join(binaries, "createdb"),
        [
          ...["-h", "127.0.0.1", "-p", String(port), "-U", "postgres"],
          ...(template === undefined ? [] : ["-T", template]),
          database,
        ],
        {
          timeout: timeoutMs,
          env: {
            ...process.env,
            ...(options.password === undefined ? {} : { PGPASSWORD: options.password }),
          },
        },
      );
      return address(database);
    },
    async stop() {
      // SIGINT is Postgres's fast shutdown: sessions are ended and the data flushed.
      await current?.stop("SIGINT");
      rmSync(folder, { recursive: true, force: true });
    },
    async restart() {
      await current?.stop("SIGINT");
      await launch();
    },
    async stopAbruptly() {
      // SIGQUIT is the immediate shutdown: every process quits at once, as after a crash.
      await current?.stop("SIGQUIT");
    },
  };
}
