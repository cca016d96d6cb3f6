// What keeps a person's OAuth grant unreadable at rest: AES-256-GCM with a key the operator gives
// the host (or one kept in its own file beside the database, never in it). Each sealed value
// names the key that sealed it, so keys rotate: the first key seals, every listed key opens. The
// owner (person and server) is the additional authenticated data, so a row copied to another
// person or server does not open.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/** One key of the seal: a short id (stored with each value) and 32 bytes. */
export interface SealKey {
  id: string;
  key: Buffer;
}

/** Seals and opens the grants the store keeps. */
export interface CredentialSeal {
  /**
   * Encrypts text for one owner.
   *
   * @param plaintext - what to keep (a grant's JSON).
   * @param owner - whose it is (`<user>\n<server>`); the same must be given to open it.
   * @returns `v1.<key id>.<iv>.<tag>.<ciphertext>`, base64url parts.
   */
  seal(plaintext: string, owner: string): string;
  /**
   * Decrypts a sealed value.
   *
   * @throws {CredentialSealError} when no key of the seal opens it, or it was sealed for another owner.
   */
  open(sealed: string, owner: string): string;
}

/** A sealed value that cannot be opened (unknown key, tampered, another owner). */
export class CredentialSealError extends Error {
  override readonly name = "CredentialSealError";
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * Makes the seal from its keys.
 *
 * @param keys - the key that seals first, then older keys that still open.
 * @returns the seal.
 * @throws {CredentialSealError} for no key, a key that is not 32 bytes, or a bad or repeated id.
 */
export function createCredentialSeal(keys: readonly SealKey[]): CredentialSeal {
  const current = keys[0];
  if (current === undefined) throw new CredentialSealError("The credential seal needs a key.");
  const byId = new Map<string, Buffer>();
  for (const { id, key } of keys) {
    if (!KEY_ID.test(id)) {
      throw new CredentialSealError(
        `A credential key id must be 1 to 32 letters, digits, "-" or "_"; "${id}" is not.`,
      );
    }
    if (key.length !== 32) {
      throw new CredentialSealError(
        `The credential key "${id}" is ${key.length} bytes; AES-256-GCM needs 32.`,
      );
    }
    if (byId.has(id)) throw new CredentialSealError(`The credential key id "${id}" is used twice.`);
    byId.set(id, key);
  }
  return {
    seal(plaintext, owner) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", current.key, iv);
      cipher.setAAD(Buffer.from(owner, "utf8"));
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      const tag = cipher.getAuthTag();
      return ["v1", current.id, iv, tag, body]
        .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
        .join(".");
    },
    open(sealed, owner) {
      const [version, id, iv, tag, body] = sealed.split(".");
      if (version !== "v1" || id === undefined || !iv || !tag || body === undefined) {
        throw new CredentialSealError("A stored credential is not in the sealed format.");
      }
      const key = byId.get(id);
      if (key === undefined) {
        throw new CredentialSealError(
          `A stored credential was sealed with the key "${id}", which the host was not given.`,
        );
      }
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
        decipher.setAAD(Buffer.from(owner, "utf8"));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([
          decipher.update(Buffer.from(body, "base64url")),
          decipher.final(),
        ]).toString("utf8");
      } catch (error) {
        throw new CredentialSealError(
          "A stored credential does not open with its key: it was changed, or it belongs to someone else.",
          { cause: error },
        );
      }
    },
  };
}

/**
 * Reads keys from their written form: `<id>:<base64 of 32 bytes>` entries separated by commas,
 * the sealing key first (the `OAUTH_CREDENTIAL_KEYS` setting, or the key file's content).
 *
 * @throws {CredentialSealError} for an entry that is not `id:key`.
 */
export function parseSealKeys(text: string): SealKey[] {
  return text
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map((entry) => {
      const colon = entry.indexOf(":");
      if (colon <= 0) {
        throw new CredentialSealError(
          'Each credential key is written "<id>:<32 bytes in base64>", separated by commas.',
        );
      }
      return { id: entry.slice(0, colon), key: Buffer.from(entry.slice(colon + 1), "base64") };
    });
}
