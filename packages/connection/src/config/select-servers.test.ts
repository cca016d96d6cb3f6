import { describe, expect, it } from "vitest";
import { McpConfigError } from "./config-error";
import { parseMcpConfig } from "./parse-config";
import { selectServer, selectServers } from "./select-servers";

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

describe("selectServers and selectServer", () => {
  const config = parseMcpConfig({
    mcpServers: {
      github: { command: "a" },
      evidence: { command: "b" },
      web: { url: "https://x.example" },
    },
  });

  it("selects every server when no names or an empty list are given", () => {
    expect(selectServers(config).map((server) => server.name)).toEqual([
      "github",
      "evidence",
      "web",
    ]);
    expect(selectServers(config, []).map((server) => server.name)).toEqual([
      "github",
      "evidence",
      "web",
    ]);
  });

  it("selects exact names in the order given, once each", () => {
    const names = selectServers(config, ["web", "github", "web"]).map((server) => server.name);
    expect(names).toEqual(["web", "github"]);
  });

  it.each([["GitHub"], [" github"], ["git"], ["github", "nope"]])(
    "refuses names that are not exact: %j",
    (...names: string[]) => {
      const error = configError(() => selectServers(config, names));
      expect(error.message).toContain("`servers` must name configured MCP servers exactly.");
    },
  );

  it("selectServer refuses an empty or unknown name", () => {
    expect(selectServer(config, "evidence").name).toBe("evidence");
    for (const name of ["", "Evidence"]) {
      expect(configError(() => selectServer(config, name)).message).toContain(
        "Select one exact, uniquely named MCP server configuration.",
      );
    }
  });
});
