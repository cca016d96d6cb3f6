/**
 * Stable codes for why a value from an app's metadata or from a proxy URL was dropped.
 * - `unsafe_character`: holds `;`, `,`, a quote, whitespace or a control character (directive injection).
 * - `not_an_origin`: a wildcard, a scheme alone, a keyword, a path, a query or something unparsable.
 * - `insecure_scheme`: `http:`/`ws:` to a host other than this machine.
 * - `broad_wildcard`: `*.` over a single label (`https://*.com`).
 * - `names_host_origin`: would let the view reach the chat host itself.
 * - `names_sandbox_origin`: would let the view frame, fetch or load from the sandbox's own origins.
 * - `too_long` / `too_many`: over the size limits.
 * - `wrong_type`: not a string, not a list, not an object.
 * - `unknown_field`: a key the MCP Apps metadata does not define.
 * - `malformed_parameter`: a URL parameter that is not base64url JSON, or given twice.
 * - `not_a_host_origin`: a proxy URL naming a page origin the host is not served on.
 * - `not_signed`: a proxy URL without the host's signature, or changed after it was signed.
 * - `expired`: a proxy URL the host signed more than a day ago.
 */
export type RejectionCode =
  | "unsafe_character"
  | "not_an_origin"
  | "insecure_scheme"
  | "broad_wildcard"
  | "names_host_origin"
  | "names_sandbox_origin"
  | "too_long"
  | "too_many"
  | "wrong_type"
  | "unknown_field"
  | "malformed_parameter"
  | "not_a_host_origin"
  | "not_signed"
  | "expired";

/** A value that was dropped, and why; the host logs these per card as its CSP audit trail. */
export interface Rejection {
  /** Where the value was: `csp`, `csp.connectDomains`, `permissions.camera`, ... */
  field: string;
  /** The value as given (non-strings as JSON), cut to 200 characters. */
  value: string;
  code: RejectionCode;
  /** A sentence for the operator's log. */
  reason: string;
}

const maximumReportedLength = 200;

/**
 * Builds a {@link Rejection}, turning any value into a bounded printable string.
 *
 * @returns the rejection record; never throws.
 */
export function rejection(
  field: string,
  value: unknown,
  code: RejectionCode,
  reason: string,
): Rejection {
  let printable: string;
  if (typeof value === "string") {
    printable = value;
  } else {
    try {
      printable = JSON.stringify(value) ?? String(value);
    } catch {
      printable = String(value);
    }
  }
  return { field, value: printable.slice(0, maximumReportedLength), code, reason };
}
