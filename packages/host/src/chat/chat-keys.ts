/**
 * Picks the key of a new chat in a session: the given id, else
 * `chat-<n+1>` where n is the number of chats already there; then made unique the way R's
 * `make.unique` does (`support`, `support.1`, `support.2`).
 *
 * @param existing - keys already used in the session, in order of creation.
 * @param id - the id the developer asked for, if any.
 * @returns a key not in `existing`.
 */
export function chatKey(existing: readonly string[], id?: string): string {
  const base = id ?? `chat-${existing.length + 1}`;
  if (!existing.includes(base)) return base;
  for (let suffix = 1; suffix <= existing.length + 1; suffix += 1) {
    const candidate = `${base}.${suffix}`;
    if (!existing.includes(candidate)) return candidate;
  }
  // Unreachable: among existing.length + 1 candidates at least one is free.
  throw new Error(`No free chat key for "${base}".`);
}
