import { describe, expect, it } from "vitest";
import { assignModelToolNames, MODEL_TOOL_NAME_PATTERN } from "./model-tool-names";

describe("assignModelToolNames", () => {
  it("keeps a valid name that no other source offers", () => {
    const [named] = assignModelToolNames([{ source: "notes", name: "add-note" }]);
    expect(named).toEqual({
      source: "notes",
      name: "add-note",
      modelName: "add-note",
      shared: false,
    });
  });

  it("renames both tools when two sources offer the same name, keeping each source visible", () => {
    const named = assignModelToolNames([
      { source: "basic-react", name: "get-time" },
      { source: "basic-vanillajs", name: "get-time" },
    ]);
    expect(named.map((tool) => tool.modelName)).toEqual([
      "basic-react__get-time",
      "basic-vanillajs__get-time",
    ]);
    expect(named.every((tool) => tool.shared)).toBe(true);
    expect(named[1]?.renamed).toContain('also offers a tool named "get-time"');
  });

  it.each([
    ["files.read", "fs__files_read"],
    ["a/b c", "fs__a_b_c"],
    ["ünïcödé", "fs__unicode"],
    ["café.au-lait", "fs__cafe_au-lait"],
  ])("derives a name providers accept from %j", (name, modelName) => {
    const [named] = assignModelToolNames([{ source: "fs", name }]);
    expect(named?.modelName).toBe(modelName);
    expect(named?.renamed).toContain("not one every model accepts");
    expect(named?.lettersLost).toBeUndefined();
  });

  it("gives a name in a script without Latin letters a readable, stable, unique model name", () => {
    const tools = [
      { source: "odd-names", name: "時刻" },
      { source: "odd-names", name: "天気" },
      { source: "odd-names", name: "получить_время" },
      { source: "odd-names", name: "get_時刻" },
    ];
    const named = assignModelToolNames(tools);
    const names = named.map((tool) => tool.modelName);
    // Not `odd-names______`: the source, `tool` or the Latin part, and a hash of (source, name).
    expect(names[0]).toMatch(/^odd-names__tool-[0-9a-f]{8}$/);
    expect(names[1]).toMatch(/^odd-names__tool-[0-9a-f]{8}$/);
    expect(names[2]).toMatch(/^odd-names__tool-[0-9a-f]{8}$/);
    expect(names[3]).toMatch(/^odd-names__get-[0-9a-f]{8}$/);
    expect(new Set(names).size).toBe(tools.length);
    for (const name of names) expect(name).toMatch(MODEL_TOOL_NAME_PATTERN);
    expect(named.every((tool) => tool.lettersLost === true)).toBe(true);
    // The same tools in another order keep their names (they depend on source and name only).
    const reversed = assignModelToolNames([...tools].reverse()).map((tool) => tool.modelName);
    expect(reversed).toEqual([...names].reverse());
  });

  it("shortens a long name with a hash, deterministically", () => {
    const long = "x".repeat(70);
    const first = assignModelToolNames([{ source: "fs", name: long }]);
    const again = assignModelToolNames([{ source: "fs", name: long }]);
    expect(first[0]?.modelName).toMatch(MODEL_TOOL_NAME_PATTERN);
    expect(first[0]?.modelName.length).toBe(64);
    expect(first[0]?.modelName).toBe(again[0]?.modelName);
  });

  it("never gives a derived name that another tool keeps as its own", () => {
    const named = assignModelToolNames([
      { source: "a", name: "b.c" },
      { source: "z", name: "a__b_c" },
    ]);
    expect(named[1]?.modelName).toBe("a__b_c");
    expect(named[0]?.modelName).not.toBe("a__b_c");
    expect(named[0]?.modelName).toMatch(MODEL_TOOL_NAME_PATTERN);
  });

  it("gives unique, valid names to a hostile mix", () => {
    const tools = [
      { source: "s", name: "t" },
      { source: "s.", name: "t" },
      { source: "s_", name: "t" },
      { source: "s", name: "t." },
      { source: "s", name: "t_" },
      { source: "", name: "" },
      { source: "q".repeat(100), name: "w".repeat(100) },
      { source: "q".repeat(100), name: "w".repeat(101) },
    ];
    const names = assignModelToolNames(tools).map((tool) => tool.modelName);
    expect(new Set(names).size).toBe(tools.length);
    for (const name of names) expect(name).toMatch(MODEL_TOOL_NAME_PATTERN);
  });
});
