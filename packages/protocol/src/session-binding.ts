/**
 * Where the host page keeps and sends its session binding (token sign-in). Cookies ignore ports,
 * so the session cookie also reaches any other program listening on the host's name; the binding
 * is the part of a sign-in that only the host page's own origin holds. The sign-in page stores it
 * in that origin's `localStorage` (per origin, ports included, and kept across browser restarts
 * like the cookie), and the page sends it with every socket handshake and data request.
 */
export const sessionBinding = {
  /** The `localStorage` key (the page falls back to `sessionStorage` when storage is refused). */
  storageKey: "mch-session-binding",
  /** The field of the socket handshake's `auth` object. */
  authField: "binding",
  /** The HTTP request header for routes that return the person's data. */
  header: "x-mch-session-binding",
} as const;
