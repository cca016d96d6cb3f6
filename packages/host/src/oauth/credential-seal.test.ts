import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createCredentialSeal, CredentialSealError, parseSealKeys } from "./credential-seal";

const keyA = { id: "a", key: randomBytes(32) };
const keyB = { id: "b", key: randomBytes(32) };

describe("the credential seal", () => {
  it("opens what it sealed, for the same owner only, and never shows the text", () => {
    const seal = createCredentialSeal([keyA]);
    const sealed = seal.seal('{"access_token":"secret-token"}', "ada\nnotes");
    expect(sealed).toMatch(/^v1\.a\./);
    expect(sealed).not.toContain("secret-token");
    expect(seal.open(sealed, "ada\nnotes")).toBe('{"access_token":"secret-token"}');
    expect(() => seal.open(sealed, "bob\nnotes")).toThrow(
      "A stored credential does not open with its key: it was changed, or it belongs to someone else.",
    );
    // One bit of the ciphertext flipped (in its bytes: a changed base64 character can fall in
    // the unused bits of the last one).
    const parts = sealed.split(".");
    const body = Buffer.from(parts[4] ?? "", "base64url");
    body[0] = (body[0] ?? 0) ^ 1;
    const tampered = [...parts.slice(0, 4), body.toString("base64url")].join(".");
    expect(tampered).not.toBe(sealed);
    expect(() => seal.open(tampered, "ada\nnotes")).toThrow(CredentialSealError);
  });

  it("rotates: a new key seals, the old one still opens what it sealed", () => {
    const old = createCredentialSeal([keyA]).seal("grant", "owner");
    const rotated = createCredentialSeal([keyB, keyA]);
    expect(rotated.open(old, "owner")).toBe("grant");
    expect(rotated.seal("grant", "owner")).toMatch(/^v1\.b\./);
    expect(() => createCredentialSeal([keyB]).open(old, "owner")).toThrow(
      'A stored credential was sealed with the key "a", which the host was not given.',
    );
  });

  it("refuses keys that are not 32 bytes, bad ids and values not in its format", () => {
    expect(() => createCredentialSeal([])).toThrow("The credential seal needs a key.");
    expect(() => createCredentialSeal([{ id: "a", key: randomBytes(16) }])).toThrow(
      'The credential key "a" is 16 bytes; AES-256-GCM needs 32.',
    );
    expect(() => createCredentialSeal([{ id: "no spaces", key: randomBytes(32) }])).toThrow(
      'A credential key id must be 1 to 32 letters, digits, "-" or "_"; "no spaces" is not.',
    );
    expect(() => createCredentialSeal([keyA, keyA])).toThrow(
      'The credential key id "a" is used twice.',
    );
    expect(() => createCredentialSeal([keyA]).open("plain", "owner")).toThrow(
      "A stored credential is not in the sealed format.",
    );
  });

  it("reads keys written as id:base64, the sealing key first", () => {
    const written = `new:${keyB.key.toString("base64")}, old:${keyA.key.toString("base64")}`;
    const keys = parseSealKeys(written);
    expect(keys.map((key) => key.id)).toEqual(["new", "old"]);
    expect(keys[0]?.key.equals(keyB.key)).toBe(true);
    expect(() => parseSealKeys("just-a-key")).toThrow(
      'Each credential key is written "<id>:<32 bytes in base64>", separated by commas.',
    );
  });
});
