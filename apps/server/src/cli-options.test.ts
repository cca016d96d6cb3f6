import { describe, expect, it } from "vitest";
import { CliError, parseCliOptions, usage } from "./cli-options";

describe("parseCliOptions", () => {
  it("gives the documented defaults", () => {
    expect(parseCliOptions([], {})).toEqual({
      auth: { mode: "token" },
      config: undefined,
      port: 8787,
      host: "127.0.0.1",
      model: undefined,
      data: "./data",
      examples: true,
      publicOrigin: undefined,
      webRoot: undefined,
      database: undefined,
      redis: undefined,
      nodeId: undefined,
      drainTimeout: 30,
      sandboxOriginTemplate: undefined,
      sandboxPort: undefined,
      metricsPort: undefined,
      metricsHost: "127.0.0.1",
      modelStallTimeout: undefined,
      exampleViews: undefined,
      serverBox: "auto",
      help: false,
    });
  });

  it("reads --server-box, and refuses a mode it does not know", () => {
    expect(parseCliOptions(["--server-box", "required"], {}).serverBox).toBe("required");
    expect(parseCliOptions(["--server-box=off"], {}).serverBox).toBe("off");
    expect(() => parseCliOptions(["--server-box", "on"], {})).toThrow(
      new CliError('--server-box must be auto, required or off, not "on".'),
    );
    expect(usage).toMatch(/--server-box <mode>/);
  });

  it("reads the model stall timeout from the flag, else the environment, and refuses a bad one", () => {
    expect(parseCliOptions([], { MODEL_STALL_TIMEOUT: "90" }).modelStallTimeout).toBe(90);
    expect(
      parseCliOptions(["--model-stall-timeout", "2.5"], { MODEL_STALL_TIMEOUT: "90" })
        .modelStallTimeout,
    ).toBe(2.5);
    expect(parseCliOptions([], { MODEL_STALL_TIMEOUT: "" }).modelStallTimeout).toBeUndefined();
    for (const bad of ["0", "-1", "soon"]) {
      expect(() => parseCliOptions([`--model-stall-timeout=${bad}`], {})).toThrow(
        new CliError(
          `--model-stall-timeout (or MODEL_STALL_TIMEOUT) must be a number of seconds above 0, not "${bad}".`,
        ),
      );
    }
    expect(() => parseCliOptions([], { MODEL_STALL_TIMEOUT: "never" })).toThrow(CliError);
  });

  it("reads the folder of the example apps' pages, and lists both settings in --help", () => {
    expect(parseCliOptions(["--example-views", "./my-views"], {}).exampleViews).toBe("./my-views");
    expect(usage).toMatch(/--model-stall-timeout <s>/);
    expect(usage).toMatch(/MODEL_STALL_TIMEOUT/);
    expect(usage).toMatch(/--example-views <dir>/);
  });

  it("reads the log file and the CA files from the flags, else the environment", () => {
    expect(
      parseCliOptions([], {
        LOG_FILE: "/var/log/chat.jsonl",
        PGSSLROOTCERT: "/etc/chat/db-ca.pem",
        REDIS_TLS_CA_FILE: "/etc/chat/redis-ca.pem",
      }),
    ).toMatchObject({
      logFile: "/var/log/chat.jsonl",
      databaseCaFile: "/etc/chat/db-ca.pem",
      redisCaFile: "/etc/chat/redis-ca.pem",
    });
    expect(
      parseCliOptions(
        ["--log-file", "chat.log", "--database-ca-file", "db.pem", "--redis-ca-file", "r.pem"],
        { LOG_FILE: "/elsewhere", PGSSLROOTCERT: "/elsewhere", REDIS_TLS_CA_FILE: "/elsewhere" },
      ),
    ).toMatchObject({ logFile: "chat.log", databaseCaFile: "db.pem", redisCaFile: "r.pem" });
    expect(parseCliOptions([], {})).toMatchObject({
      logFile: undefined,
      databaseCaFile: undefined,
      redisCaFile: undefined,
    });
  });

  it("reads a node's cluster settings from the flags, else the environment", () => {
    const fromEnvironment = parseCliOptions([], {
      DATABASE_URL: "postgres://chat@db:5432/chat",
      REDIS_URL: "redis://cache:6379",
      NODE_ID: "node-a",
    });
    expect(fromEnvironment).toMatchObject({
      database: "postgres://chat@db:5432/chat",
      redis: "redis://cache:6379",
      nodeId: "node-a",
    });
    const fromFlags = parseCliOptions(
      [
        "--database",
        "postgresql://other@db/chat",
        "--redis",
        "redis://other:6379",
        "--node-id",
        "node-b",
        "--drain-timeout",
        "5",
        "--sandbox-origin-template",
        "https://{source}.sandbox.example.com",
        "--sandbox-port",
        "8788",
      ],
      { DATABASE_URL: "postgres://ignored@db/chat", NODE_ID: "ignored" },
    );
    expect(fromFlags).toMatchObject({
      database: "postgresql://other@db/chat",
      redis: "redis://other:6379",
      nodeId: "node-b",
      drainTimeout: 5,
      sandboxOriginTemplate: "https://{source}.sandbox.example.com",
      sandboxPort: 8788,
    });
  });

  it("refuses a database URL that is not postgres, and a sandbox port without a template", () => {
    expect(() => parseCliOptions(["--database", "mysql://user:pw@db/chat"], {})).toThrow(
      /must be a postgres:\/\/ URL; "db\/chat"/,
    );
    expect(() => parseCliOptions(["--sandbox-port", "8788"], {})).toThrow(CliError);
    expect(() => parseCliOptions(["--drain-timeout", "soon"], {})).toThrow(/--drain-timeout/);
  });

  it("reads every option and the config from the environment", () => {
    const options = parseCliOptions(
      [
        "--port",
        "0",
        "--host",
        "0.0.0.0",
        "--model",
        "openai:gpt-x",
        "--data",
        "d",
        "--no-examples",
        "--web-root",
        "build/web",
        "--trusted-header",
        "x-user",
        "--trusted-proxy",
        "10.0.0.1",
        "--trusted-proxy",
        "10.0.0.2",
      ],
      { MCP_CHAT_HOST_CONFIG: "servers.json" },
    );
    expect(options).toMatchObject({
      config: "servers.json",
      port: 0,
      host: "0.0.0.0",
      model: "openai:gpt-x",
      data: "d",
      examples: false,
      webRoot: "build/web",
      auth: { mode: "trusted-header", header: "x-user", proxies: ["10.0.0.1", "10.0.0.2"] },
    });
  });

  it("refuses a bad port, an unknown option, and a header without its proxy", () => {
    expect(() => parseCliOptions(["--port", "99999"], {})).toThrow(/--port must be a whole number/);
    expect(() => parseCliOptions(["--nope"], {})).toThrow(CliError);
    expect(() => parseCliOptions(["--trusted-header", "x-user"], {})).toThrow(
      /needs at least one --trusted-proxy/,
    );
  });

  it("reads the metrics listener's port and address, and refuses them malformed or alone", () => {
    expect(
      parseCliOptions(["--metrics-port", "9464", "--metrics-host", "10.0.0.5"], {}),
    ).toMatchObject({ metricsPort: 9464, metricsHost: "10.0.0.5" });
    expect(() => parseCliOptions(["--metrics-port", "x"], {})).toThrow(
      /--metrics-port must be a whole number/,
    );
    expect(() => parseCliOptions(["--metrics-host", "10.0.0.5"], {})).toThrow(
      /--metrics-host goes with --metrics-port/,
    );
  });
});

describe("the OpenID Connect settings", () => {
  it("reads the issuer, the client id (flag, else OIDC_CLIENT_ID), scopes, domains, groups and timeout", () => {
    expect(
      parseCliOptions(["--oidc-issuer", "https://accounts.example.com"], {
        OIDC_CLIENT_ID: "chat",
      }).auth,
    ).toEqual({
      mode: "oidc",
      issuer: "https://accounts.example.com",
      clientId: "chat",
      scopes: ["openid", "email", "profile"],
      allowedDomains: [],
      allowedGroups: [],
      signInTimeoutSeconds: 600,
    });
    expect(
      parseCliOptions(
        [
          "--oidc-issuer",
          "http://127.0.0.1:9000",
          "--oidc-client-id",
          "flag-id",
          "--oidc-scopes",
          "openid email groups",
          "--oidc-allowed-domains",
          "example.com, example.org",
          "--oidc-allowed-groups",
          "staff",
          "--oidc-sign-in-timeout",
          "120",
        ],
        { OIDC_CLIENT_ID: "env-id" },
      ).auth,
    ).toEqual({
      mode: "oidc",
      issuer: "http://127.0.0.1:9000",
      clientId: "flag-id",
      scopes: ["openid", "email", "groups"],
      allowedDomains: ["example.com", "example.org"],
      allowedGroups: ["staff"],
      signInTimeoutSeconds: 120,
    });
  });

  it("refuses what cannot work, saying what to change", () => {
    const refusal = (argv: string[], env: Record<string, string> = { OIDC_CLIENT_ID: "chat" }) => {
      try {
        parseCliOptions(argv, env);
      } catch (error) {
        expect(error).toBeInstanceOf(CliError);
        return (error as Error).message;
      }
      return "accepted";
    };
    expect(refusal(["--oidc-issuer", "https://id.example.com"], {})).toContain("OIDC_CLIENT_ID");
    expect(refusal(["--oidc-issuer", "http://id.example.com"])).toContain(
      "plain http only on loopback",
    );
    expect(refusal(["--oidc-allowed-domains", "example.com"])).toContain(
      "--oidc-allowed-domains goes with --oidc-issuer",
    );
    expect(
      refusal([
        "--oidc-issuer",
        "https://id.example.com",
        "--trusted-header",
        "x-user",
        "--trusted-proxy",
        "127.0.0.1",
      ]),
    ).toContain("choose one");
    expect(refusal(["--oidc-issuer", "https://id.example.com", "--host", "0.0.0.0"])).toContain(
      "needs --public-origin",
    );
    expect(
      refusal([
        "--oidc-issuer",
        "https://id.example.com",
        "--host",
        "0.0.0.0",
        "--public-origin",
        "https://chat.example.com",
      ]),
    ).toBe("accepted");
    expect(
      refusal(["--oidc-issuer", "https://id.example.com", "--oidc-sign-in-timeout", "0"]),
    ).toContain("--oidc-sign-in-timeout");
  });
});
