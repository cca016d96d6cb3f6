import { describe, expect, it } from "vitest";
import { onFreshSnapshotWanted, placeDelta, wantFreshSnapshot } from "./delta-order";

describe("placeDelta", () => {
  it("appends a delta that starts where the text ends", () => {
    expect(placeDelta(5, { delta: "world", offset: 5 })).toEqual({ kind: "append", text: "world" });
  });

  it("skips a delta the snapshot already holds, and keeps only the new part of one it half holds", () => {
    expect(placeDelta(10, { delta: "abc", offset: 4 })).toEqual({ kind: "known" });
    expect(placeDelta(10, { delta: "abcdef", offset: 8 })).toEqual({
      kind: "append",
      text: "cdef",
    });
  });

  it("reports a gap when text before the delta is missing", () => {
    expect(placeDelta(3, { delta: "later", offset: 9 })).toEqual({ kind: "gap" });
  });

  it("appends a delta without an offset, as before", () => {
    expect(placeDelta(3, { delta: "x" })).toEqual({ kind: "append", text: "x" });
  });

  it("tells its listeners that a fresh snapshot is wanted, until they are removed", () => {
    const calls: string[] = [];
    const remove = onFreshSnapshotWanted(() => calls.push("asked"));
    wantFreshSnapshot();
    remove();
    wantFreshSnapshot();
    expect(calls).toEqual(["asked"]);
  });
});
