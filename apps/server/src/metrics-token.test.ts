import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CliError } from "./cli-options";
import { metricsTokenFrom } from "./metrics-token";

let folder = "";
afterEach(() => {
  if (folder !== "") rmSync(folder, { recursive: true, force: true });
  folder = "";
});

describe("metricsTokenFrom", () => {
  it("takes METRICS_TOKEN first, else the file's content without its line end, else none", () => {
    folder = mkdtempSync(join(tmpdir(), "mch-metrics-token-"));
    const file = join(folder, "token");
    writeFileSync(file, "from-the-file\n");
    expect(metricsTokenFrom({ METRICS_TOKEN: "direct", METRICS_TOKEN_FILE: file })).toBe("direct");
    expect(metricsTokenFrom({ METRICS_TOKEN_FILE: file })).toBe("from-the-file");
    expect(metricsTokenFrom({ METRICS_TOKEN: "" })).toBeUndefined();
    expect(metricsTokenFrom({})).toBeUndefined();
  });

  it("refuses a file that is missing or empty, naming it", () => {
    folder = mkdtempSync(join(tmpdir(), "mch-metrics-token-"));
    const empty = join(folder, "empty");
    writeFileSync(empty, "\n");
    expect(() => metricsTokenFrom({ METRICS_TOKEN_FILE: empty })).toThrow(/which is empty/);
    const missing = join(folder, "missing");
    expect(() => metricsTokenFrom({ METRICS_TOKEN_FILE: missing })).toThrow(CliError);
    expect(() => metricsTokenFrom({ METRICS_TOKEN_FILE: missing })).toThrow(/can't be read/);
  });
});
