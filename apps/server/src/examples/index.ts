// The example in-process apps the server ships with, each showing one side of MCP Apps: Notes
// (model context and app messages), Tasks (a destructive app-only tool the default policy asks
// about) and Data table (structured results, full screen, links).
import type { McpApp } from "@mcp-chat-host/host";
import { dataTableApp } from "./data-table/app";
import { notesApp } from "./notes/app";
import { tasksApp } from "./tasks/app";
import type { ExampleAppOptions } from "./view-file";

export { dataTableApp } from "./data-table/app";
export { notesApp } from "./notes/app";
export { tasksApp } from "./tasks/app";
export {
  DEFAULT_VIEWS_DIRECTORY,
  EXAMPLE_VIEW_NAMES,
  ExampleViewError,
  assertExampleViewsBuilt,
  readViewHtml,
  viewFile,
} from "./view-file";
export type { ExampleAppOptions, ExampleViewErrorCode, ExampleViewName } from "./view-file";

/**
 * Builds the three example apps: `notes`, `tasks` and `data-table`, in that order. Each call
 * gives new `McpApp` objects; each source opened from one gets its own server state.
 *
 * @param options - where the built pages live (`apps/server/dist/views/` by default).
 * @returns the apps. Their pages are read when a card opens, so building the apps never fails
 *   for a missing page; call {@link assertExampleViewsBuilt} at start to fail early instead.
 */
export function exampleApps(options: ExampleAppOptions = {}): McpApp[] {
  return [notesApp(options), tasksApp(options), dataTableApp(options)];
}
