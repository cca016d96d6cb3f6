// Comments, test names and docs cite the repository only: a file, a test, a decision note in
// docs/decisions/. An issue number, a section of a design document kept elsewhere or a path out of
// the repository cannot be followed by someone with just a clone, so each must say its reason in
// place. A public issue of another project, given by its URL, can be looked up and is fine.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const self = relative(root, fileURLToPath(import.meta.url))
  .split("\\")
  .join("/");

/** What points outside the repository, each with the reason it is refused. */
const citations = [
  // "issue 9", "Issue 18 item 3", "issues 129 and 130", "issue #4"; not ".../issues/149" (a URL).
  { pattern: /\bissues?\s+#?\d+/i, why: "an issue number" },
  // "(item 7)", "items 4 to 6": the numbered items of an issue. A page's own numbered list is
  // named with where it is: "item 10 below".
  { pattern: /\bitems?\s+\d+(?!\d|\s+(?:above|below)\b)/i, why: "an issue's item" },
  // "as the issue states it", "not done in this issue": which issue is not in the repository.
  { pattern: /\b(?:the|this|that)\s+issue\b|\bissue's\b/i, why: "an issue" },
  { pattern: /\bDESIGN\b/, why: "the design document, which is not in the repository" },
  {
    pattern: /\bseed[\s-]behaviours?\b/i,
    why: "the seed behaviours note, which is not in the repository",
  },
  { pattern: /\.\.\/shared\b/, why: "a path outside the repository" },
];

/** Files whose text is not prose or code a person reads, or that are generated. */
const skipped = [/(^|\/)package-lock\.json$/, /\.(png|jpe?g|gif|ico|webp|woff2?|sqlite|db)$/i];

/** Each line of `text` that cites something outside the repository, as `line: why`. */
function citationsIn(text) {
  const found = [];
  text.split("\n").forEach((line, index) => {
    for (const { pattern, why } of citations) {
      if (pattern.test(line)) found.push({ line: index + 1, why });
    }
  });
  return found;
}

describe("citationsIn", () => {
  it("finds an issue, its items, a design section, the seed note and a path out of the repo", () => {
    const text = [
      "// The audit of a conversation (issue 9, item 16).",
      "// Issue 18 item 3: metrics.",
      "/** Builds the server (DESIGN section 4). */",
      "rests on the seed behaviours note",
      "read in `../shared/reference/`",
      "the mcptools format, issues 129 and 130",
      "the goal, as the issue states it",
    ].join("\n");
    assert.deepEqual(
      citationsIn(text).map((found) => found.line),
      [1, 1, 2, 2, 3, 4, 5, 6, 7],
    );
  });

  it("lets a public URL of an issue, a file of the repository and a decision note pass", () => {
    const text = [
      "// See https://github.com/modelcontextprotocol/ext-apps/issues/149 for the bridge's side.",
      "// Why: docs/decisions/2026-12-01-host-ui-above-cards.md.",
      "// JSON in base64url (RFC 4648 section 5, no padding).",
      "// the issuer's keys, 2 of them; a designer's note",
      "the audit thread (item 10 below) and the warm frame (item 4 above)",
    ].join("\n");
    assert.deepEqual(citationsIn(text), []);
  });
});

describe("the repository's tracked files", () => {
  it("cite nothing outside the repository", () => {
    const files = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
      .split("\0")
      .filter((file) => file !== "" && file !== self && !file.includes("node_modules/"))
      .filter((file) => !skipped.some((pattern) => pattern.test(file)));
    const offences = [];
    for (const file of files) {
      let text;
      try {
        text = readFileSync(join(root, file), "utf8");
      } catch {
        continue; // deleted in the work tree but still in the index
      }
      if (text.includes("\0")) continue; // binary
      for (const { line, why } of citationsIn(text)) offences.push(`${file}:${line}: ${why}`);
    }
    assert.deepEqual(
      offences,
      [],
      `say the reason in place, or name a file, a test or a note in docs/decisions/:\n${offences.join("\n")}`,
    );
  });
});
