// The host's secrets (model API keys, tokens for remote servers' headers) come in through its
// environment. They are read into memory once, then taken out of `process.env`, so that nothing
// that reads the environment later (a dependency, an in-process app, a child started without an
// explicit environment) finds them. Stdio servers never inherited them anyway: they get a small
// explicit environment (see `StdioProcessTransport`). What this cannot change: on Linux,
// `/proc/<pid>/environ` shows the environment the process was started with, and any process of
// the same OS user may read it; see docs/security.md.

/** The variables the host itself reads secrets from. */
const hostSecretVariables: readonly string[] = [
  "ANTHROPIC_API_KEY",
  "OPENAI_API_KEY",
  "OPENAI_COMPATIBLE_API_KEY",
  "SESSION_SECRET",
  "OIDC_CLIENT_SECRET",
  // Connection strings carry the database's and Redis's passwords.
  "DATABASE_URL",
  "REDIS_URL",
  // An OpenTelemetry collector's headers usually carry its token.
  "OTEL_EXPORTER_OTLP_HEADERS",
  "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
];

/** Names that hold credentials by convention (`GITHUB_TOKEN`, `X_API_KEY`, `DB_PASSWORD`, ...). */
const secretName =
  /(?:^|_)(?:API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|SECRET(?:_?KEY)?|TOKEN|PASSWORD|PASSWD|CREDENTIALS?)$/i;

/**
 * Whether a variable holds a secret: one the host reads, or one whose name says so.
 *
 * @param name - the variable's name.
 * @returns true for `ANTHROPIC_API_KEY`, `GITHUB_TOKEN`, `DB_PASSWORD`; false for `PATH`, `MODEL`.
 */
export function isSecretVariable(name: string): boolean {
  return hostSecretVariables.includes(name) || secretName.test(name);
}

/**
 * Copies the environment for the host to read its keys and configuration from, then deletes
 * every secret variable from `env`. Call it first, before any MCP server is started.
 *
 * @param env - the process environment (changed in place).
 * @returns the copy (with the secrets) and the names that were taken out.
 */
export function withdrawSecrets(env: NodeJS.ProcessEnv = process.env): {
  environment: Readonly<Record<string, string | undefined>>;
  withdrawn: string[];
} {
  const environment = Object.freeze({ ...env });
  const withdrawn = Object.keys(env).filter(isSecretVariable).sort();
  for (const name of withdrawn) delete env[name];
  return { environment, withdrawn };
}
