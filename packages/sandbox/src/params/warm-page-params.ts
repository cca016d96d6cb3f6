// Where the warm document lives, named for both sides: the chat page builds the warm frames' URLs
// from these, and the sandbox's server answers them (`server/warm-page.ts`).

/** Path of the warm document on every sandbox origin. */
export const warmPagePath = "/warm";

/** The `view=` parameter of the proxy's warm document: the label of the view origin to warm too. */
export const warmViewParam = "view";
