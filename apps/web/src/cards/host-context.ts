// The host context a card's view receives in its `ui/initialize` answer and, changed fields
// only, in `ui/notifications/host-context-changed` (spec 2026-01-26, "Host context").
import type { ToolInfo } from "@mcp-chat-host/protocol";
import type {
  McpUiHostCapabilities,
  McpUiHostContext,
  McpUiResourceCsp,
  McpUiResourcePermissions,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import type { Implementation, Tool } from "@modelcontextprotocol/client";
import { offeredDisplayModes, type DisplayMode } from "./display-mode";
import type { ContainerDimensions } from "./frame-size";
import type { Theme } from "../state/theme-store";
import { hostStyleVariables, type CssVariableReader } from "./style-variables";

/** Who the host is, in the `ui/initialize` answer. */
export const cardHostInfo: Implementation = { name: "mcp-chat-host", version: "0.1.0" };

/** The `userAgent` of the host context: this host's application id. */
const cardUserAgent = "mcp-chat-host";

/**
 * The capabilities a card's bridge announces. Every one has a handler (an announced capability
 * without one answers "method not found"). `sandbox` reports what the sandbox grants: the view's
 * own declared domains and permissions, as the server validated them into the proxy URL.
 *
 * @param page - the `csp` and `permissions` of the attach reply's page.
 * @returns the host capabilities.
 */
export function cardHostCapabilities(page: {
  csp?: Record<string, unknown> | undefined;
  permissions?: Record<string, unknown> | undefined;
}): McpUiHostCapabilities {
  const sandbox: NonNullable<McpUiHostCapabilities["sandbox"]> = {};
  if (page.csp !== undefined) sandbox.csp = page.csp as McpUiResourceCsp;
  if (page.permissions !== undefined) {
    sandbox.permissions = page.permissions as McpUiResourcePermissions;
  }
  return {
    openLinks: {},
    downloadFile: {},
    serverTools: {},
    serverResources: {},
    logging: {},
    updateModelContext: { text: {}, structuredContent: {} },
    message: { text: {} },
    sandbox,
  };
}

/** What {@link buildHostContext} needs to know about the page. */
export interface HostContextInput {
  theme: Theme;
  displayMode: DisplayMode;
  containerDimensions: ContainerDimensions;
  /** The opening tool, as the attach reply gives it. */
  tool: ToolInfo;
  /** Reads the page's CSS variables (for `styles.variables`). */
  readVariable?: CssVariableReader;
  /** BCP 47 locale; default `navigator.language`. */
  locale?: string;
  /** IANA time zone; default the browser's. */
  timeZone?: string;
  /** Device capabilities; default measured with `matchMedia` when available. */
  deviceCapabilities?: { touch: boolean; hover: boolean };
}

function measureDevice(): { touch: boolean; hover: boolean } | undefined {
  if (typeof window === "undefined" || typeof window.matchMedia !== "function") return undefined;
  return {
    touch: window.matchMedia("(pointer: coarse)").matches,
    hover: window.matchMedia("(hover: hover)").matches,
  };
}

/**
 * Builds a card's full host context.
 *
 * @returns theme, style variables, display mode and the modes offered, container dimensions,
 *   locale, time zone, platform `"web"`, user agent, device capabilities and `toolInfo`.
 */
export function buildHostContext(input: HostContextInput): McpUiHostContext {
  const context: McpUiHostContext = {
    theme: input.theme,
    styles: { variables: hostStyleVariables(input.theme, input.readVariable) },
    displayMode: input.displayMode,
    availableDisplayModes: [...offeredDisplayModes],
    containerDimensions: input.containerDimensions,
    locale: input.locale ?? (typeof navigator !== "undefined" ? navigator.language : "en"),
    timeZone: input.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    platform: "web",
    userAgent: cardUserAgent,
    // The server's tool record is the MCP tool as listed; its input schema is a JSON schema object.
    toolInfo: { tool: input.tool as unknown as Tool },
  };
  const device = input.deviceCapabilities ?? measureDevice();
  if (device !== undefined) context.deviceCapabilities = device;
  return context;
}
