/**
 * Keeps a card's report (and its title) from opening or closing an `app-context` block in the
 * model's text, however it spells the tag.
 *
 * The match runs on a folded copy of the text, never on the text itself: each character is put
 * through NFKC, lowercased and mapped to the ASCII letter it imitates (Cyrillic `а`, Greek `ο`,
 * small capitals, dashes, angle brackets and slashes of other blocks); invisible characters (zero-
 * width, bidi controls, soft hyphens, NUL and other controls, combining marks) and JSON escapes of
 * them (`\u0000`) count as nothing, and `\uXXXX` escapes count as the character they name. Where the
 * folded copy has a bracket, then only spaces and slashes, then `app`, any separators and
 * `context`, the original's bracket and what follows it up to the name are rewritten as `&lt;` (or
 * `&lt;/` for a closing tag). Everything else is kept exactly as written: normalising the whole
 * text would change honest reports (`x²` would become `x2`, emoji joiners would be lost).
 *
 * Character references (`&lt;`, `&#60;`) are text, not tags, as in XML: that is what the rewrite
 * produces, so running the escape twice changes nothing.
 */

/** The folded copy of a text, and where each of its UTF-16 units came from. */
interface FoldedText {
  /** The folded copy. */
  readonly text: string;
  /** For each UTF-16 unit of the folded copy, where its source starts in the original. */
  readonly starts: readonly number[];
}

/** A bracket, spaces and slashes, then the tag's name, in the folded copy. */
const TAG_IN_FOLDED = /<[ /\\]*(app[-_. ]*context)/g;

/** A JSON or JavaScript escape that names a character (`\u0000`, `\x3c`), with any backslashes. */
const CODE_ESCAPE = /\\+(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2}))/y;

/** A JSON escape of a whitespace character (`\n`), with any backslashes. */
const SPACE_ESCAPE = /\\+[nrtbf]/y;

/** Characters a reader doesn't see: they count as nothing between the tag's letters. */
const INVISIBLE = /^[\p{Cc}\p{Cf}\p{M}\p{Default_Ignorable_Code_Point}]$/u;

// Unicode's White_Space, not `\s`: `\s` also takes U+FEFF, which is invisible, not a space.
const WHITESPACE = /^\p{White_Space}$/u;

/**
 * Characters that imitate the tag's letters and punctuation, after NFKC and lowercasing (which
 * already fold fullwidth and mathematical letters and uppercase Cyrillic and Greek).
 */
const LOOKALIKES: Readonly<Record<string, string>> = {
  ...spread("<", "‹«〈《⟨⟪˂ᐸ❮❬⧼"),
  ...spread("/", "⁄∕⧸╱⟋"),
  ...spread("-", "‐‑‒–—―−⁃˗⸺⸻﹘"),
  ...spread("a", "аαɑᴀ⍺"),
  ...spread("p", "рρϱᴘⲣ"),
  ...spread("c", "сϲᴄ"),
  ...spread("o", "оοᴏօ"),
  ...spread("n", "ոɴν"),
  ...spread("t", "тτᴛ"),
  ...spread("e", "еεҽᴇ℮"),
  ...spread("x", "хχ×"),
};

function spread(target: string, characters: string): Record<string, string> {
  return Object.fromEntries(Array.from(characters, (character) => [character, target]));
}

/**
 * Rewrites every spelling of an `app-context` tag in a report so that it reads as text: the
 * bracket (and any spaces, slashes or invisible characters before the name) becomes `&lt;` or
 * `&lt;/`; the name and the rest of the text are kept as written.
 *
 * @param text - a report's text (already cut to length) or an attribute value.
 * @returns the text, unchanged when it holds nothing that looks like the tag.
 */
export function escapeReportTags(text: string): string {
  // Fast path: in plain ASCII, only "<" or a backslash escape can start a tag.
  if (!/[^\p{ASCII}]|<|\\/u.test(text)) return text;
  const folded = foldText(text);
  let result = "";
  let copied = 0;
  for (const match of folded.text.matchAll(TAG_IN_FOLDED)) {
    const matchStart = match.index;
    const nameStart = matchStart + match[0].length - (match[1]?.length ?? 0);
    const start = folded.starts[matchStart] ?? 0;
    const name = folded.starts[nameStart] ?? start;
    if (start < copied) continue;
    const closing = match[0].slice(0, nameStart - matchStart).includes("/");
    result += text.slice(copied, start) + (closing ? "&lt;/" : "&lt;");
    copied = name;
  }
  return result === "" ? text : result + text.slice(copied);
}

/** Builds the folded copy of a text with the source span of each of its units. */
function foldText(text: string): FoldedText {
  let folded = "";
  const starts: number[] = [];
  let index = 0;
  while (index < text.length) {
    let end: number;
    let piece: string;
    CODE_ESCAPE.lastIndex = index;
    SPACE_ESCAPE.lastIndex = index;
    const code = CODE_ESCAPE.exec(text);
    const space = code === null ? SPACE_ESCAPE.exec(text) : null;
    if (code !== null) {
      end = index + code[0].length;
      piece = foldCharacter(String.fromCharCode(Number.parseInt(code[1] ?? code[2] ?? "0", 16)));
    } else if (space !== null) {
      end = index + space[0].length;
      piece = " ";
    } else {
      const codePoint = text.codePointAt(index) ?? 0;
      end = index + (codePoint > 0xffff ? 2 : 1);
      piece = foldCharacter(String.fromCodePoint(codePoint));
    }
    for (let unit = 0; unit < piece.length; unit += 1) starts.push(index);
    folded += piece;
    index = end;
  }
  return { text: folded, starts };
}

/** One character as the tag matcher sees it: `""` for invisible ones, `" "` for spaces. */
function foldCharacter(character: string): string {
  if (WHITESPACE.test(character)) return " ";
  let folded = "";
  for (const part of character.normalize("NFKC")) {
    if (WHITESPACE.test(part)) {
      folded += " ";
      continue;
    }
    if (INVISIBLE.test(part)) continue;
    for (const letter of part.toLowerCase()) folded += LOOKALIKES[letter] ?? letter;
  }
  return folded;
}
