/**
 * What the operator lets people add as servers of their own (connectors, `host.connectors`):
 * the address patterns, and whether plain http to this machine is accepted. A session's servers
 * check every address against it (`servers/connector-url.ts`).
 */
export interface ConnectorPolicy {
  /** The `allow` patterns as the operator wrote them (shown to people as a hint). */
  patterns: string[];
  /** Whether `http:` to a loopback address is accepted (development and tests). */
  allowLoopback: boolean;
  /** Whether a URL matches one of the patterns (scheme, host, port and path). */
  allows(url: URL): boolean;
}
