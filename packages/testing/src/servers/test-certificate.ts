// A CA and a server certificate made with `openssl` for a test server (Postgres, Redis) that
// serves TLS on 127.0.0.1: clients verify it with the CA's file, as `sslmode=verify-full` does.
import { execFile } from "node:child_process";
import { chmodSync, chownSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A server certificate and the CA that signed it, as files in the server's folder. */
export interface ServerCertificate {
  caFile: string;
  certFile: string;
  keyFile: string;
}

/**
 * Makes a CA and a server certificate for 127.0.0.1 and localhost with `openssl` (P-256 keys,
 * one day), the key readable by the server's user only, as Postgres demands.
 *
 * @param folder - where the files go.
 * @param identity - the user the server runs as, who must own them; undefined: this one.
 * @param timeoutMs - how long each `openssl` run may take.
 * @returns the files.
 */
export async function makeServerCertificate(
  folder: string,
  identity: { uid: number; gid: number } | undefined,
  timeoutMs: number,
): Promise<ServerCertificate> {
  const file = (name: string) => join(folder, name);
  const key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  await run(
    "openssl",
    ["req", "-x509", ...key, "-keyout", file("ca.key"), "-out", file("ca.crt")].concat([
      "-days",
      "1",
      "-subj",
      "/CN=mcp-chat-host test CA",
    ]),
    { timeout: timeoutMs },
  );
  await run(
    "openssl",
    ["req", "-x509", ...key, "-keyout", file("server.key"), "-out", file("server.crt")]
      .concat(["-CA", file("ca.crt"), "-CAkey", file("ca.key"), "-days", "1"])
      .concat(["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"]),
    { timeout: timeoutMs },
  );
  for (const name of ["server.key", "server.crt", "ca.crt"]) {
    if (identity !== undefined) chownSync(file(name), identity.uid, identity.gid);
  }
  chmodSync(file("server.key"), 0o600);
  return { caFile: file("ca.crt"), certFile: file("server.crt"), keyFile: file("server.key") };
}
