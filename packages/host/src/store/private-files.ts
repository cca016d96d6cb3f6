import { errorMessage } from "@mcp-chat-host/protocol";
import {
  chmodSync,
  closeSync,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  statSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { StoreError } from "./store-error";

/** The mode of the data folder and of every folder the host makes in it: the owner only. */
const PRIVATE_FOLDER_MODE = 0o700;

/** The mode of every file the host writes in its data folder: the owner reads and writes. */
const PRIVATE_FILE_MODE = 0o600;

/** One mode the host changed, for the log: the path and its modes before and after, in octal. */
export interface ModeChange {
  readonly path: string;
  readonly from: string;
  readonly to: string;
}

/** File modes mean nothing on Windows; there these functions do nothing. */
const modesApply = process.platform !== "win32";

/**
 * Makes a data folder private: creates it `0700` when missing (with its missing parents), else
 * takes group and other bits off the folder and off every entry directly in it (a `0644` file
 * becomes `0600`, a `0755` one `0700`; the owner's bits are kept). Links are left alone: their
 * target is not the host's to change. The modes are set with `chmod`, so the umask plays no part.
 *
 * @param folder - the data folder.
 * @returns what was changed, folder first, then entries by name; empty when nothing was loose.
 * @throws StoreError `storage_failed` when the folder belongs to another user (who could read and
 *   replace everything in it), or a mode can't be changed.
 */
export function securePrivateFolder(folder: string): ModeChange[] {
  if (!modesApply) return [];
  const changes: ModeChange[] = [];
  try {
    mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    const stats = statSync(folder);
    const uid = process.getuid?.();
    if (uid !== undefined && stats.uid !== uid) {
      throw new StoreError(
        "storage_failed",
        `The data folder "${folder}" belongs to another user (uid ${stats.uid}); choose a folder of your own.`,
      );
    }
    tighten(folder, stats.mode, stats.mode & PRIVATE_FOLDER_MODE, changes);
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      const entry = lstatSync(path);
      if (entry.isSymbolicLink()) continue;
      tighten(path, entry.mode, entry.mode & 0o700, changes);
    }
  } catch (error) {
    throw privacyError(error, folder);
  }
  return changes;
}

/**
 * Sets each existing file of a list to `0600` exactly (the database and its `-wal`, `-shm` and
 * `-journal` files); missing ones are skipped.
 *
 * @param paths - the files.
 * @returns what was changed.
 * @throws StoreError `storage_failed` when a mode can't be changed.
 */
export function tightenPrivateFiles(paths: readonly string[]): ModeChange[] {
  if (!modesApply) return [];
  const changes: ModeChange[] = [];
  for (const path of paths) {
    let mode: number;
    try {
      mode = lstatSync(path).mode;
    } catch {
      continue;
    }
    try {
      tighten(path, mode, PRIVATE_FILE_MODE, changes);
    } catch (error) {
      throw privacyError(error, path);
    }
  }
  return changes;
}

/**
 * Creates an empty file `0600` when it is missing (set with `fchmod`, so the umask plays no part);
 * an existing file is left as it is.
 *
 * @param path - the file.
 * @returns true when the file was created.
 * @throws the file system's error, other than the file existing already.
 */
export function createPrivateFile(path: string): boolean {
  let descriptor: number;
  try {
    descriptor = openSync(path, "wx", PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    if (modesApply) fchmodSync(descriptor, PRIVATE_FILE_MODE);
  } finally {
    closeSync(descriptor);
  }
  return true;
}

/**
 * Writes a file readable by its owner only: opened (created `0600` when missing), set to `0600`
 * with `fchmod` before anything is written (so an old loose file never holds the new content),
 * then written whole.
 *
 * @param path - the file.
 * @param content - its new content.
 * @throws the file system's error when the file can't be written.
 */
export function writePrivateFile(path: string, content: string | Uint8Array): void {
  const descriptor = openSync(path, "w", PRIVATE_FILE_MODE);
  try {
    if (modesApply && (fstatSync(descriptor).mode & 0o777) !== PRIVATE_FILE_MODE) {
      fchmodSync(descriptor, PRIVATE_FILE_MODE);
    }
    const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
    let written = 0;
    while (written < bytes.length) {
      written += writeSync(descriptor, bytes, written, bytes.length - written);
    }
  } finally {
    closeSync(descriptor);
  }
}

/** Changes a mode when it differs from the wanted one, and notes the change. */
function tighten(path: string, mode: number, wanted: number, changes: ModeChange[]): void {
  if ((mode & 0o777) === wanted) return;
  chmodSync(path, wanted);
  changes.push({ path, from: octal(mode), to: octal(wanted) });
}

function octal(mode: number): string {
  return (mode & 0o777).toString(8).padStart(4, "0");
}

function privacyError(error: unknown, path: string): StoreError {
  if (error instanceof StoreError) return error;
  const detail = errorMessage(error);
  return new StoreError(
    "storage_failed",
    `The data folder could not be made private at "${path}" (${detail}); the server cannot start. Check that the folder is yours and writable.`,
    { cause: error },
  );
}
