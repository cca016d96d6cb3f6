/** The `sessionStorage` key holding this tab's id. */
const TAB_ID_KEY = "mcp-chat-host:tab-id";

/**
 * This tab's id: kept in `sessionStorage`, so a reload or a reconnect of the same tab reaches
 * the same server session, while another tab gets its own.
 *
 * @param storage - where to keep it (the tab's `sessionStorage`); when it throws, a fresh id is used.
 * @param randomId - makes a new id (injected by tests).
 * @returns the id, made of characters the server's id schema accepts.
 */
export function tabIdFrom(
  storage: Pick<Storage, "getItem" | "setItem"> | undefined,
  randomId: () => string = () => crypto.randomUUID(),
): string {
  try {
    const saved = storage?.getItem(TAB_ID_KEY);
    if (saved !== null && saved !== undefined && /^[A-Za-z0-9_.:-]{8,200}$/.test(saved)) {
      return saved;
    }
    const fresh = `tab-${randomId()}`;
    storage?.setItem(TAB_ID_KEY, fresh);
    return fresh;
  } catch {
    // Storage can be disabled (privacy settings); the tab then gets a new session on reload.
    return `tab-${randomId()}`;
  }
}
