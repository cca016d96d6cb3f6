import { describe, expect, it } from "vitest";
import { parsePartialJson, partialArguments } from "./partial-json";

describe("parsePartialJson", () => {
  it("reads complete JSON as JSON.parse does", () => {
    const text = '{"a":[1,2.5,{"b":null}],"c":"x\\"y","d":true,"e":-3e2}';
    expect(parsePartialJson(text)).toEqual(JSON.parse(text));
  });

  it("reads nothing from empty or non-JSON text", () => {
    expect(parsePartialJson("")).toBeUndefined();
    expect(parsePartialJson("   ")).toBeUndefined();
    expect(parsePartialJson("hello")).toBeUndefined();
  });

  it.each([
    ["{", {}],
    ['{"na', {}],
    ['{"name"', {}],
    ['{"name":', {}],
    ['{"name": ', {}],
    ['{"name":"Ad', { name: "Ad" }],
    ['{"name":"Ada"', { name: "Ada" }],
    ['{"name":"Ada",', { name: "Ada" }],
    ['{"name":"Ada","n":1', { name: "Ada", n: 1 }],
    ['{"name":"Ada","n":-', { name: "Ada" }],
    ['{"name":"Ada","n":1e', { name: "Ada" }],
    ['{"name":"Ada","n":2.', { name: "Ada" }],
    ['{"name":"Ada","n":-3e+', { name: "Ada" }],
    ['{"name":"Ada","n":-3e+2', { name: "Ada", n: -300 }],
    ['{"name":"Ada","note":"1e', { name: "Ada", note: "1e" }],
    ['{"ok":tr', {}],
    ['{"ok":true', { ok: true }],
    ['{"list":[1,2', { list: [1, 2] }],
    ['{"list":[1,2,', { list: [1, 2] }],
    ['{"list":[{"a":"b"},{"a":', { list: [{ a: "b" }, {}] }],
    ['{"deep":{"deeper":{"x":"y', { deep: { deeper: { x: "y" } } }],
  ])("closes %j", (text, expected) => {
    expect(parsePartialJson(text)).toEqual(expected);
  });

  it("leaves out an escape cut off by the end of the text", () => {
    expect(parsePartialJson('{"s":"a\\')).toEqual({ s: "a" });
    expect(parsePartialJson('{"s":"a\\u00')).toEqual({ s: "a" });
    expect(parsePartialJson('{"s":"a\\u00e9')).toEqual({ s: "aé" });
    expect(parsePartialJson('{"s":"a\\\\')).toEqual({ s: "a\\" });
  });

  it("keeps brackets inside strings as text", () => {
    expect(parsePartialJson('{"s":"{[\\"]}')).toEqual({ s: '{["]}' });
  });

  it("reads a growing text as growing values", () => {
    const full = '{"city":"Paris","days":[1,2,3]}';
    const seen = Array.from({ length: full.length + 1 }, (_, end) =>
      JSON.stringify(parsePartialJson(full.slice(0, end)) ?? null),
    );
    expect(seen.at(-1)).toBe(full);
    // Every prefix from the first brace on reads as some object.
    for (const value of seen.slice(1)) expect(value).not.toBe("null");
  });
});

describe("partialArguments", () => {
  it("is the object read so far, or {} for anything else", () => {
    expect(partialArguments('{"q":"ca')).toEqual({ q: "ca" });
    expect(partialArguments("")).toEqual({});
    expect(partialArguments("[1,2")).toEqual({});
    expect(partialArguments('"text')).toEqual({});
  });
});
