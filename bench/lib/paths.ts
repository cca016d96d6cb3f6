// Where things are, resolved from this file at run time (no machine's paths are written down).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The monorepo's root folder. */
export const repositoryRoot = fileURLToPath(new URL("../../", import.meta.url));

/** The `bench/` folder. */
export const benchDirectory = fileURLToPath(new URL("../", import.meta.url));

/**
 * A new empty folder under the system's temporary folder, for one run's data.
 *
 * @param prefix - the start of its name, e.g. "mch-bench-start-".
 */
export function temporaryDirectory(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
