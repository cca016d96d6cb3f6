// Whether a URL's host is on this computer or the local network, as far as its text tells: an
// address in a loopback, private, shared or link-local range, or a name that only resolves
// locally. A public name that a DNS server maps to a local address (`127.0.0.1.nip.io`) cannot be
// told from its text; the browser's own protections for private networks are the remaining guard.

/** What {@link localAddressOf} found. */
export interface LocalAddress {
  /** The host as written in the URL (`127.0.0.1`, `[::1]`, `printer.local`). */
  readonly address: string;
  /** A phrase for the person: "an address on this computer", "an address on your local network". */
  readonly description: string;
}

const ON_THIS_COMPUTER = "an address on this computer";
const ON_THE_NETWORK = "an address on your local network";

/** IPv4 ranges, written out: 0/8, 127/8 (this computer); 10/8, 100.64/10, 169.254/16, 172.16/12, 192.168/16. */
const ipv4Ranges: ReadonlyArray<{ base: string; bits: number; where: string }> = [
  { base: "0.0.0.0", bits: 8, where: ON_THIS_COMPUTER },
  { base: "127.0.0.0", bits: 8, where: ON_THIS_COMPUTER },
  { base: "10.0.0.0", bits: 8, where: ON_THE_NETWORK },
  { base: "100.64.0.0", bits: 10, where: ON_THE_NETWORK },
  { base: "169.254.0.0", bits: 16, where: ON_THE_NETWORK },
  { base: "172.16.0.0", bits: 12, where: ON_THE_NETWORK },
  { base: "192.168.0.0", bits: 16, where: ON_THE_NETWORK },
];

/** Name suffixes that resolve only locally (mDNS, reserved and customary home names). */
const localSuffixes = [".localhost", ".local", ".internal", ".lan", ".home.arpa", ".intranet"];

/** A dotted-quad IPv4 address as a 32-bit number, or null. */
function ipv4Number(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

/** The range an IPv4 number falls in, if it is a local one. */
function ipv4Where(value: number): string | null {
  for (const range of ipv4Ranges) {
    const base = ipv4Number(range.base) ?? 0;
    const size = 2 ** (32 - range.bits);
    if (value >= base && value < base + size) return range.where;
  }
  return null;
}

/** An IPv6 address (no brackets, no zone) as eight 16-bit groups, or null. */
function ipv6Groups(text: string): number[] | null {
  let head = text;
  let tail: number[] = [];
  // A trailing dotted quad (`::ffff:1.2.3.4`) is two groups.
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(head);
  if (quad?.[1] !== undefined) {
    const value = ipv4Number(quad[1]);
    if (value === null) return null;
    tail = [Math.floor(value / 65_536), value % 65_536];
    head = head.slice(0, -quad[1].length);
    if (head.endsWith(":") && !head.endsWith("::")) head = head.slice(0, -1);
  }
  const halves = head.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string): number[] | null => {
    if (part === "") return [];
    const groups: number[] = [];
    for (const group of part.split(":")) {
      if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
      groups.push(parseInt(group, 16));
    }
    return groups;
  };
  const left = parse(halves[0] ?? "");
  const right = halves.length === 2 ? parse(halves[1] ?? "") : [];
  if (left === null || right === null) return null;
  const known = left.length + right.length + tail.length;
  if (halves.length === 2) {
    if (known > 7) return null;
    return [...left, ...new Array<number>(8 - known).fill(0), ...right, ...tail];
  }
  return known === 8 ? [...left, ...tail] : null;
}

/** The range an IPv6 address falls in, if it is a local one (embedded IPv4 is checked too). */
function ipv6Where(groups: readonly number[]): string | null {
  const [first = 0, , , , , sixth = 0, seventh = 0, eighth = 0] = groups;
  const allZeroBefore = (count: number) => groups.slice(0, count).every((group) => group === 0);
  if (allZeroBefore(7) && (eighth === 1 || eighth === 0)) return ON_THIS_COMPUTER; // ::1, ::
  if ((first & 0xfe00) === 0xfc00) return ON_THE_NETWORK; // fc00::/7, unique local
  if ((first & 0xffc0) === 0xfe80) return ON_THE_NETWORK; // fe80::/10, link-local
  if ((first & 0xffc0) === 0xfec0) return ON_THE_NETWORK; // fec0::/10, old site-local
  const embedded = seventh * 65_536 + eighth;
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), 64:ff9b::a.b.c.d (NAT64).
  const mapped = allZeroBefore(5) && (sixth === 0xffff || sixth === 0);
  const nat64 = first === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0);
  if (mapped || nat64) return ipv4Where(embedded);
  return null;
}

/**
 * Tells whether a URL's host names this computer or the local network.
 *
 * @param hostname - `URL.hostname` (IPv6 in brackets; IPv4 already normalised by the URL parser,
 *   so `2130706433` and `0x7f.1` arrive as `127.0.0.1`).
 * @returns the address and a phrase for the person, or null for a public host.
 */
export function localAddressOf(hostname: string): LocalAddress | null {
  const written = hostname.toLowerCase();
  const bare = written.replace(/\.+$/, "");
  if (bare.startsWith("[") && bare.endsWith("]")) {
    const groups = ipv6Groups(bare.slice(1, -1).replace(/%.*$/, ""));
    const where = groups === null ? null : ipv6Where(groups);
    return where === null ? null : { address: written, description: where };
  }
  const ipv4 = ipv4Number(bare);
  if (ipv4 !== null) {
    const where = ipv4Where(ipv4);
    return where === null ? null : { address: written, description: where };
  }
  if (bare === "localhost" || bare.endsWith(".localhost")) {
    return { address: written, description: ON_THIS_COMPUTER };
  }
  if (bare === "" || !bare.includes(".") || localSuffixes.some((suffix) => bare.endsWith(suffix))) {
    return { address: written, description: ON_THE_NETWORK };
  }
  return null;
}
