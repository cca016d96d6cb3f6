import { describe, expect, it } from "vitest";
import { CliError, parseCliOptions } from "./cli-options";

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
      help: false,
    });
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
});
