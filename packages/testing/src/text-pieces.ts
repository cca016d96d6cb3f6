/**
 * Splits text into pieces of at most `size` characters (code points), and into at least two
 * pieces whenever it has two characters or more, the way a model streams tokens.
 *
 * @returns the pieces in order; none for empty text.
 */
export function splitIntoPieces(text: string, size: number): string[] {
  const characters = Array.from(text);
  if (characters.length === 0) return [];
  const pieceSize = Math.max(1, Math.min(size, Math.ceil(characters.length / 2)));
  const pieces: string[] = [];
  for (let start = 0; start < characters.length; start += pieceSize) {
    pieces.push(characters.slice(start, start + pieceSize).join(""));
  }
  return pieces;
}

/** @returns the token estimate the stand-in uses everywhere: characters / 4, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
