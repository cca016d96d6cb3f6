import { describe, expect, it } from "vitest";
import { readSessionBinding } from "./session-binding";

/** A storage holding the given items. */
function storageWith(items: Record<string, string>): Pick<Storage, "getItem"> {
  return { getItem: (key) => items[key] ?? null };
}

describe("readSessionBinding", () => {
  it("reads the binding the sign-in page kept, from localStorage first", () => {
    expect(
      readSessionBinding([
        () => storageWith({ "mch-session-binding": "from-local" }),
        () => storageWith({ "mch-session-binding": "from-session" }),
      ]),
    ).toBe("from-local");
  });

  it("falls back to the next storage when one is empty or throws", () => {
    const refused = () => {
      throw new DOMException("The operation is insecure.", "SecurityError");
    };
    expect(
      readSessionBinding([
        refused,
        () => storageWith({}),
        () => storageWith({ "mch-session-binding": "from-session" }),
      ]),
    ).toBe("from-session");
  });

  it("has none when no storage holds one", () => {
    expect(readSessionBinding([() => storageWith({ "mch-session-binding": "" })])).toBeUndefined();
    expect(readSessionBinding([() => undefined])).toBeUndefined();
  });
});
