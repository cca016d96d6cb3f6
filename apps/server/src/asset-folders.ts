// Where the command line finds the built web app and the example views: beside itself in the
// published package (whose build sets MCP_CHAT_HOST_BUNDLE), else in the repository's build
// folders (apps/web/dist/ and apps/server/dist/views/).
import { DEFAULT_VIEWS_DIRECTORY } from "./examples/index";

// Replaced by `true` when packages/mcp-chat-host bundles this file; undeclared otherwise.
declare const MCP_CHAT_HOST_BUNDLE: boolean | undefined;

const bundled = typeof MCP_CHAT_HOST_BUNDLE !== "undefined" && MCP_CHAT_HOST_BUNDLE;

/** The built web app's folder (what `--web-root` overrides). */
export const builtWebFolder: URL = bundled
  ? new URL("./web/", import.meta.url)
  : new URL("../../web/dist/", import.meta.url);

/** The folder of the built example views (`<name>.html`). */
export const builtViewsFolder: URL = bundled
  ? new URL("./views/", import.meta.url)
  : DEFAULT_VIEWS_DIRECTORY;
