import { describe, expect, it } from "vitest";
import { isSecretVariable, withdrawSecrets } from "./secret-environment";

describe("withdrawSecrets", () => {
  it("keeps the keys in the copy and takes them out of the environment", () => {
    const env: NodeJS.ProcessEnv = {
      PATH: "/usr/bin",
      MODEL: "anthropic:claude-x",
      ANTHROPIC_API_KEY: "sk-ant-test",
      OPENAI_API_KEY: "sk-test",
      OPENAI_COMPATIBLE_API_KEY: "local-key",
      SESSION_SECRET: "cookie-key",
      GITHUB_TOKEN: "ghp_test",
      NOTES_SERVER_PASSWORD: "hunter2",
      OIDC_CLIENT_SECRET: "oidc-secret",
    };
    const { environment, withdrawn } = withdrawSecrets(env);
    expect(environment["ANTHROPIC_API_KEY"]).toBe("sk-ant-test");
    expect(environment["GITHUB_TOKEN"]).toBe("ghp_test");
    expect(env).toEqual({ PATH: "/usr/bin", MODEL: "anthropic:claude-x" });
    expect(withdrawn).toEqual([
      "ANTHROPIC_API_KEY",
      "GITHUB_TOKEN",
      "NOTES_SERVER_PASSWORD",
      "OIDC_CLIENT_SECRET",
      "OPENAI_API_KEY",
      "OPENAI_COMPATIBLE_API_KEY",
      "SESSION_SECRET",
    ]);
    expect(Object.isFrozen(environment)).toBe(true);
  });

  it.each([
    ["ANTHROPIC_API_KEY", true],
    ["AWS_SECRET_ACCESS_KEY", true],
    ["AWS_ACCESS_KEY", true],
    ["X_APIKEY", true],
    ["SLACK_BOT_TOKEN", true],
    ["PGPASSWORD", false], // no separator before PASSWORD: not recognised by its name
    ["DB_PASSWORD", true],
    ["GOOGLE_APPLICATION_CREDENTIALS", true],
    ["DATABASE_URL", true],
    ["REDIS_URL", true],
    ["OTEL_EXPORTER_OTLP_HEADERS", true],
    ["OTEL_EXPORTER_OTLP_TRACES_HEADERS", true],
    ["OTEL_EXPORTER_OTLP_ENDPOINT", false],
    ["PATH", false],
    ["HOME", false],
    ["MODEL", false],
    ["OPENAI_BASE_URL", false],
    ["TOKENIZERS_PARALLELISM", false],
  ])("tells whether %s is a secret (%s)", (name, secret) => {
    expect(isSecretVariable(name)).toBe(secret);
  });
});
