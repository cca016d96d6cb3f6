import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The key that signs session cookies, kept in the data folder so that a sign-in survives a
 * restart. Made on first start (32 random bytes, readable by the owner only).
 *
 * @param dataDirectory - the data folder (created when missing).
 * @returns the key.
 */
export function loadSessionKey(dataDirectory: string): Buffer {
  mkdirSync(dataDirectory, { recursive: true });
  const path = join(dataDirectory, "session-key");
  if (existsSync(path)) {
    const key = Buffer.from(readFileSync(path, "utf8").trim(), "base64url");
    if (key.length >= 32) return key;
  }
  const key = randomBytes(32);
  writeFileSync(path, key.toString("base64url"), { mode: 0o600 });
  chmodSync(path, 0o600);
  return key;
}
