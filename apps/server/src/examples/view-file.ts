// Where the example apps' pages live once built, and how an app reads its page. The pages are
// single-file HTML documents that `build-views.mjs` writes to apps/server/dist/views/; they are
// read at every resource read (not at start), so a rebuilt page shows up without a restart and
// the apps' tools work even before the pages are built.
import { access, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/** The names of the example views, one per example app; each builds to `<name>.html`. */
export const EXAMPLE_VIEW_NAMES = ["notes", "tasks", "data-table"] as const;

/** The name of one example view. */
export type ExampleViewName = (typeof EXAMPLE_VIEW_NAMES)[number];

/** Where `build-views.mjs` writes the pages by default: `apps/server/dist/views/`. */
export const DEFAULT_VIEWS_DIRECTORY: URL = new URL("../../dist/views/", import.meta.url);

/** Stable codes of {@link ExampleViewError}. */
export type ExampleViewErrorCode = "view_not_built" | "view_unreadable";

/** An example app's page could not be read; the message says how to fix it. */
export class ExampleViewError extends Error {
  override readonly name = "ExampleViewError";

  /**
   * @param code - `view_not_built` when the file is missing, `view_unreadable` otherwise.
   * @param message - a sentence saying what to do next.
   * @param options - the underlying error.
   */
  constructor(
    readonly code: ExampleViewErrorCode,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

/**
 * The file of one built view.
 *
 * @param name - the view's name.
 * @param directory - the folder holding the built views; {@link DEFAULT_VIEWS_DIRECTORY} by default.
 * @returns the file's URL.
 */
export function viewFile(name: string, directory: URL = DEFAULT_VIEWS_DIRECTORY): URL {
  // A folder URL without its trailing slash would make `new URL` replace its last segment.
  const folder = directory.href.endsWith("/") ? directory : new URL(`${directory.href}/`);
  return new URL(`${encodeURIComponent(name)}.html`, folder);
}

function isMissingFile(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ENOENT";
}

function notBuiltMessage(names: readonly string[], directory: URL): string {
  const files = names.map((name) => fileURLToPath(viewFile(name, directory))).join(", ");
  const quoted = names.map((name) => `"${name}"`).join(", ");
  const subject =
    names.length === 1
      ? `The page of the example app ${quoted} is`
      : `The pages of the example apps ${quoted} are`;
  return `${subject} not built (missing: ${files}). Run \`npm run build\` (it builds the example pages), then open the app again.`;
}

/**
 * Reads one built view.
 *
 * @param name - the view's name.
 * @param directory - the folder holding the built views; {@link DEFAULT_VIEWS_DIRECTORY} by default.
 * @returns the page's HTML.
 * @throws {ExampleViewError} `view_not_built` when the file is missing (run `npm run build`),
 *   `view_unreadable` when it exists but cannot be read.
 */
export async function readViewHtml(
  name: string,
  directory: URL = DEFAULT_VIEWS_DIRECTORY,
): Promise<string> {
  const file = viewFile(name, directory);
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if (isMissingFile(error)) {
      throw new ExampleViewError("view_not_built", notBuiltMessage([name], directory), {
        cause: error,
      });
    }
    throw new ExampleViewError(
      "view_unreadable",
      `The page of the example app "${name}" (${fileURLToPath(file)}) cannot be read: ${(error as Error).message}. Check the file's permissions, or rebuild it with \`npm run build\`.`,
      { cause: error },
    );
  }
}

/**
 * Checks that every example view is built, so a start-up can fail early with one clear message
 * instead of each card failing to open later.
 *
 * @param directory - the folder holding the built views; {@link DEFAULT_VIEWS_DIRECTORY} by default.
 * @throws {ExampleViewError} `view_not_built`, naming every missing page.
 */
export async function assertExampleViewsBuilt(
  directory: URL = DEFAULT_VIEWS_DIRECTORY,
): Promise<void> {
  const missing: string[] = [];
  for (const name of EXAMPLE_VIEW_NAMES) {
    try {
      await access(viewFile(name, directory));
    } catch (error) {
      if (!isMissingFile(error)) throw error;
      missing.push(name);
    }
  }
  if (missing.length > 0) {
    throw new ExampleViewError("view_not_built", notBuiltMessage(missing, directory));
  }
}

/** Options every example app factory takes. */
export interface ExampleAppOptions {
  /** The folder holding the built views; {@link DEFAULT_VIEWS_DIRECTORY} by default (tests point it elsewhere). */
  viewsDirectory?: URL;
}
