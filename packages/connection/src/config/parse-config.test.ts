import { describe, expect, it } from "vitest";
import { McpConfigError } from "./config-error";
import { parseMcpConfig } from "./parse-config";
import { effectiveShareMode, selectServer, selectServers } from "./select-servers";

/** Runs `action`, expects an McpConfigError, and returns it. */
function configError(action: () => unknown): McpConfigError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(McpConfigError);
    expect((error as McpConfigError).code).toBe("config");
    return error as McpConfigError;
  }
  throw new Error("expected an McpConfigError");
}

function remote(entry: Record<string, unknown>, env: Record<string, string> = {}) {
  return parseMcpConfig({ mcpServers: { api: entry } }, { env });
}

describe("parseMcpConfig entries", () => {
  it("reads the mcptools example: stdio and remote entries with their fields", () => {
    const text = JSON.stringify({
      mcpServers: {
        mcptools: { command: "Rscript", args: ["-e", "mcptools::mcp_server()"] },
        github: {
          command: "docker",
          args: ["run", "-i"],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: "pat" },
        },
        "remote-example": {
          url: "https://remote.mcp.server/mcp",
          timeout: 30,
          headers: { Authorization: "Bearer ${REMOTE_MCP_TOKEN}" },
        },
      },
    });
    const config = parseMcpConfig(text, { env: { REMOTE_MCP_TOKEN: "t0ken" }, source: "x.json" });
    expect(Object.keys(config.servers)).toEqual(["mcptools", "github", "remote-example"]);
    expect(config.servers["mcptools"]).toEqual({
      kind: "stdio",
      name: "mcptools",
      command: "Rscript",
      args: ["-e", "mcptools::mcp_server()"],
      env: {},
    });
    expect(config.servers["github"]).toMatchObject({
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: "pat" },
    });
    expect(config.servers["remote-example"]).toEqual({
      kind: "remote",
      name: "remote-example",
      url: "https://remote.mcp.server/mcp",
      headers: { Authorization: "Bearer t0ken" },
      timeout: 30,
      allowHttp: false,
    });
    expect(config.source).toBe("x.json");
    expect("host" in config).toBe(false);
  });

  it("passes the host section through untouched and tolerates unknown keys", () => {
    const host = { messages: "compose", onAppCall: { default: "ask" } };
    const config = parseMcpConfig({
      mcpServers: { basic: { command: "node", ignore_tools: ["x*"], disabled: true } },
      host,
      other: 1,
    });
    expect(config.host).toEqual(host);
    expect(config.servers["basic"]).toEqual({
      kind: "stdio",
      name: "basic",
      command: "node",
      args: [],
      env: {},
    });
  });

  it("lets url win when an entry has both url and command", () => {
    const config = remote({ url: "https://example.com/mcp", command: "node" });
    expect(config.servers["api"]?.kind).toBe("remote");
  });

  it("refuses an entry with neither url nor command", () => {
    const error = configError(() => parseMcpConfig({ mcpServers: { empty: { args: [] } } }));
    expect(error.message).toContain("Each server must have either url or command.");
    expect(error.server).toBe("empty");
    expect(configError(() => parseMcpConfig({ mcpServers: { odd: "node" } })).message).toContain(
      "Each server must have either url or command.",
    );
  });

  it.each(["Accept", "content-type", "MCP-Session-Id", "mcp-protocol-version"])(
    "refuses the reserved header %s, naming it",
    (header) => {
      const error = configError(() =>
        remote({ url: "https://example.com/mcp", headers: { [header]: "secret-value" } }),
      );
      expect(error.message).toContain(`reserved header "${header}"`);
      expect(error.message).not.toContain("secret-value");
    },
  );

  it("interpolates ${VARIABLE} in header values, several per value", () => {
    const config = remote(
      { url: "https://example.com/mcp", headers: { "X-Pair": "${A}:${B}", Plain: "$A" } },
      { A: "one", B: "two" },
    );
    expect(config.servers["api"]).toMatchObject({ headers: { "X-Pair": "one:two", Plain: "$A" } });
  });

  it("refuses an unset variable, naming the variable and the server but no value", () => {
    const error = configError(() =>
      remote(
        { url: "https://example.com/mcp", headers: { Authorization: "Bearer ${MISSING_TOKEN}" } },
        { OTHER: "secret-value" },
      ),
    );
    expect(error.message).toContain("MISSING_TOKEN");
    expect(error.message).toContain('MCP server "api"');
    expect(error.message).not.toContain("Bearer");
  });

  it("reads variables from process.env by default", () => {
    process.env["MCP_CONFIG_TEST_TOKEN"] = "from-process";
    try {
      const config = parseMcpConfig({
        mcpServers: {
          api: { url: "https://example.com/mcp", headers: { "X-Key": "${MCP_CONFIG_TEST_TOKEN}" } },
        },
      });
      expect(config.servers["api"]).toMatchObject({ headers: { "X-Key": "from-process" } });
    } finally {
      delete process.env["MCP_CONFIG_TEST_TOKEN"];
    }
  });

  it("refuses Authorization with oauth unless oauth.allow_authorization_header", () => {
    const entry = { url: "https://example.com/mcp", headers: { authorization: "Bearer s3cret" } };
    const error = configError(() => remote({ ...entry, oauth: { scope: "read" } }));
    expect(error.message).toContain("Authorization header and oauth");
    expect(error.message).toContain("allow_authorization_header");
    expect(error.message).not.toContain("s3cret");
    const allowed = remote({ ...entry, oauth: { allow_authorization_header: true } });
    expect(allowed.servers["api"]?.kind).toBe("remote");
  });

  it("reads a pre-registered OAuth client and its scopes, and refuses a secret without a client id", () => {
    const parsed = remote(
      {
        url: "https://example.com/mcp",
        oauth: {
          client_id: "host-1",
          client_secret: "${CLIENT_SECRET}",
          scopes: ["read", "write"],
        },
      },
      { CLIENT_SECRET: "s3cret" },
    );
    const server = parsed.servers["api"];
    expect(server?.kind === "remote" ? server.oauth : undefined).toEqual({
      clientId: "host-1",
      clientSecret: "s3cret",
      scopes: ["read", "write"],
    });
    const error = configError(() =>
      remote({ url: "https://example.com/mcp", oauth: { client_secret: "s3cret" } }),
    );
    expect(error.message).toBe(
      'MCP server "api" sets oauth.client_secret without oauth.client_id. Add the client id the authorization server registered, or remove the secret.',
    );
  });

  it("refuses credentials over http:// to another host unless allow_http", () => {
    const withHeader = { url: "http://mcp.example.com/mcp", headers: { "X-Key": "s3cret" } };
    const error = configError(() => remote(withHeader));
    expect(error.message).toContain("Use an https:// url");
    expect(error.message).toContain('"allow_http": true');
    expect(error.message).not.toContain("s3cret");
    const userinfo = configError(() => remote({ url: "http://user:pa55@mcp.example.com/mcp" }));
    expect(userinfo.message).toContain("plain http://");
    expect(userinfo.message).not.toContain("pa55");
    expect(remote({ ...withHeader, allow_http: true }).servers["api"]).toMatchObject({
      allowHttp: true,
    });
  });

  it("allows http:// without credentials, and credentials to loopback hosts", () => {
    expect(remote({ url: "http://mcp.example.com/mcp" }).servers["api"]?.kind).toBe("remote");
    for (const host of ["localhost:3001", "127.0.0.1:3001", "[::1]:3001", "app.localhost"]) {
      const config = remote({ url: `http://${host}/mcp`, headers: { "X-Key": "k" } });
      expect(config.servers["api"]).toMatchObject({ allowHttp: false });
    }
  });

  it("reads a stdio entry's timeout in seconds, and refuses a bad one", () => {
    const config = parseMcpConfig({ mcpServers: { slow: { command: "node", timeout: 5 } } });
    expect(config.servers["slow"]).toMatchObject({ kind: "stdio", timeout: 5 });
    expect(() => parseMcpConfig({ mcpServers: { slow: { command: "node", timeout: 0 } } })).toThrow(
      'invalid "timeout"',
    );
  });

  it.each([0, -5, "30"])("refuses timeout %j: it must be a positive number", (timeout) => {
    const error = configError(() => remote({ url: "https://example.com/mcp", timeout }));
    expect(error.message).toContain('invalid "timeout"');
  });

  it("refuses a url that is not http(s), without repeating it", () => {
    const error = configError(() => remote({ url: "ftp://token@files.example.com" }));
    expect(error.message).toContain("http:// or https://");
    expect(error.message).not.toContain("token");
  });

  it("refuses badly typed stdio fields, naming the field", () => {
    const error = configError(() =>
      parseMcpConfig({ mcpServers: { bad: { command: "node", args: ["ok", 3] } } }),
    );
    expect(error.message).toContain('MCP server "bad" has an invalid "args.1"');
  });

  it("keeps share when given and applies the per-kind default otherwise", () => {
    const config = parseMcpConfig({
      mcpServers: {
        local: { command: "node" },
        pooled: { command: "node", share: "conversation" },
        web: { url: "https://example.com/mcp" },
        common: { url: "https://example.com/mcp", share: "process" },
      },
    });
    const share = (name: string) => effectiveShareMode(selectServer(config, name));
    expect([share("local"), share("pooled"), share("web"), share("common")]).toEqual([
      "process",
      "conversation",
      "conversation",
      "process",
    ]);
    expect(
      configError(() =>
        parseMcpConfig({ mcpServers: { x: { command: "node", share: "everyone" } } }),
      ).message,
    ).toContain('invalid "share"');
  });
});

describe("parseMcpConfig documents", () => {
  it("accepts a file that starts with a byte order mark", () => {
    const config = parseMcpConfig('\uFEFF{"mcpServers": {"a": {"command": "node"}}}');
    expect(Object.keys(config.servers)).toEqual(["a"]);
  });

  it("treats an empty or blank file as no servers", () => {
    expect(parseMcpConfig("").servers).toEqual({});
    expect(parseMcpConfig("  \n").servers).toEqual({});
  });

  it("refuses invalid JSON with the reason and position, but no file content", () => {
    const error = configError(() => parseMcpConfig('{\n  "mcpServers": { "a": "s3cret" x }\n}'));
    expect(error.message).toMatch(/^Configuration processing failed: .*not valid JSON/);
    expect(error.message).toContain("line 2");
    expect(error.message).not.toContain("s3cret");
  });

  it.each([
    ['{"mcpServers": {"a": tru}}', "line 1, column 22"],
    ['{\n  "mcpServers": {},\n}', "line 3, column 1"],
    ['// a comment\n{"mcpServers": {}}', "line 1, column 1"],
  ])("names where %j stops being JSON", (text, where) => {
    expect(configError(() => parseMcpConfig(text)).message).toBe(
      `Configuration processing failed: the configuration is not valid JSON (${where}). Fix the syntax and try again.`,
    );
  });

  it.each([
    ["no mcpServers", { servers: {} }],
    ["mcpServers not an object", { mcpServers: ["a"] }],
    ["a top-level array", []],
    ["null", null],
  ])("refuses %s with Configuration processing failed", (_label, document) => {
    const error = configError(() => parseMcpConfig(JSON.stringify(document)));
    expect(error.message).toMatch(/^Configuration processing failed: .*"mcpServers" object/);
  });

  it("refuses a server name that appears twice in the text", () => {
    const text = `{"mcpServers": {"github": {"command": "a"}, "other": {"url": "https://x.example"},
      "git\\u0068ub": {"command": "b"}}}`;
    const error = configError(() => parseMcpConfig(text));
    expect(error.message).toContain("Select one exact, uniquely named MCP server configuration.");
    expect(error.message).toContain('"github"');
    expect(error.server).toBe("github");
  });

  it("refuses two mcpServers objects, but not repeated keys elsewhere", () => {
    const twice = '{"mcpServers": {"a": {"command": "x"}}, "mcpServers": {"b": {"command": "y"}}}';
    expect(configError(() => parseMcpConfig(twice)).message).toContain(
      "Select one exact, uniquely named MCP server configuration.",
    );
    const nested = `{"mcpServers": {"a": {"command": "x", "env": {"K": "1", "K": "2"}},
      "b": {"command": "y", "args": ["{\\"a\\": 1, \\"a\\": 2}"]}}, "host": {"a": 1, "a": 2}}`;
    const config = parseMcpConfig(nested);
    expect(Object.keys(config.servers)).toEqual(["a", "b"]);
    expect(config.servers["a"]).toMatchObject({ env: { K: "2" } });
  });

  it("keeps a server named like an Object.prototype member as an ordinary entry", () => {
    const config = parseMcpConfig('{"mcpServers": {"__proto__": {"command": "node"}}}');
    expect(selectServers(config, ["__proto__"])).toEqual([
      { kind: "stdio", name: "__proto__", command: "node", args: [], env: {} },
    ]);
    expect(() => selectServer(config, "toString")).toThrow(McpConfigError);
  });
});
