import { randomBytes } from "node:crypto";

const NODE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The node's id: the one given (`NODE_ID`), else a generated `node-<8 hex digits>`.
 *
 * @param given - the configured id, if any.
 * @returns the id.
 * @throws {TypeError} for an id that is not 1 to 64 letters, digits, dots, dashes or underscores.
 */
export function resolveNodeId(given?: string): string {
  if (given === undefined || given.trim() === "") return `node-${randomBytes(4).toString("hex")}`;
  const id = given.trim();
  if (!NODE_ID.test(id)) {
    throw new TypeError(
      `The node id "${id}" is not usable: use 1 to 64 letters, digits, dots, dashes or underscores.`,
    );
  }
  return id;
}
