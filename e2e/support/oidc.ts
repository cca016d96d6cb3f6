// The published program (`node packages/mcp-chat-host/dist/cli.js`, built by `npx turbo run
// build`) in its OpenID Connect mode, for the sign-in specs: started on a port known in advance
// (the redirect URI registered at the test provider names it), with its own data folder, and
// stopped with SIGTERM. The provider is `startOidcProvider` of @mcp-chat-host/testing.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const program = join(root, "packages", "mcp-chat-host", "dist", "cli.js");

/** A running program in the OpenID Connect mode. */
export interface OidcHost {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  data: string;
  /** Everything it wrote so far (its log), to check what it logged and did not. */
  output(): string;
  stop(): Promise<void>;
}

/** How to start it. */
export interface OidcHostOptions {
  port: number;
  issuer: string;
  clientId: string;
  /** Given as OIDC_CLIENT_SECRET; none: a public client. */
  clientSecret?: string;
  /** More flags (`--oidc-allowed-domains example.com`). */
  flags?: string[];
}

/**
 * Starts the published program and resolves once it printed that it is ready.
 *
 * @throws when the bundle is not built, or the program exits or stays silent for 60 s.
 */
export async function startOidcHost(options: OidcHostOptions): Promise<OidcHost> {
  if (!existsSync(program)) {
    throw new Error(`${program} is not built; run \`npx turbo run build\` first.`);
  }
  const base = join(root, "e2e", "artifacts");
  mkdirSync(base, { recursive: true });
  const data = mkdtempSync(join(base, "oidc-data-"));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      program,
      "--port",
      String(options.port),
      "--data",
      data,
      "--oidc-issuer",
      options.issuer,
      "--oidc-client-id",
      options.clientId,
      ...(options.flags ?? []),
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        LOG_LEVEL: "info",
        ...(options.clientSecret === undefined ? {} : { OIDC_CLIENT_SECRET: options.clientSecret }),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`The program did not start within 60 s:\n${output}`)),
      60_000,
    );
    const check = () => {
      const match = /Open (http:\/\/\S+) and sign in with /.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`The program exited (${code}) before it was ready:\n${output}`));
    });
  });
  return {
    origin,
    data,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
