// What the protected MCP server offers: `whoami` (with a view, so a card opens), `list_reports`
// (which needs one scope more than the default: a step-up), one prompt and one resource.
import { McpServer, requireScopes, type ServerContext } from "@modelcontextprotocol/server";
import * as z from "zod";

/** The scope `list_reports` needs beyond the default scopes. */
export const reportsScope = "reports:read";

/** The view of `whoami`. */
const whoamiViewUri = "ui://protected/whoami.html";

const viewMimeType = "text/html;profile=mcp-app";

// The MCP Apps handshake by hand, then the tool result's text on the page.
const whoamiView = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Who am I</title></head>
<body>
<p data-testid="whoami-text">Waiting for the result</p>
<script>
  var text = document.querySelector('[data-testid="whoami-text"]');
  window.addEventListener("message", function (event) {
    if (event.source !== window.parent) return;
    var data = event.data || {};
    if (data.jsonrpc !== "2.0") return;
    if (data.id === "whoami-initialize" && data.result) {
      window.parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} }, "*");
    }
    if (data.method === "ui/notifications/tool-result") {
      var content = (data.params && data.params.content) || [];
      var first = content.find(function (part) { return part.type === "text"; });
      if (first) text.textContent = first.text;
    }
  });
  window.parent.postMessage({
    jsonrpc: "2.0",
    id: "whoami-initialize",
    method: "ui/initialize",
    params: { protocolVersion: "2026-01-26", appInfo: { name: "whoami", version: "1.0.0" }, appCapabilities: {} }
  }, "*");
</script>
</body>
</html>
`;

/** One tool call the server answered. */
export interface ProtectedToolCall {
  tool: string;
  /** The token's `sub`. */
  subject: string;
  scopes: string[];
}

function callerOf(context: ServerContext): { subject: string; scopes: string[] } {
  const authInfo = context.http?.authInfo;
  const subject = authInfo?.extra?.subject;
  return { subject: typeof subject === "string" ? subject : "", scopes: authInfo?.scopes ?? [] };
}

/**
 * Makes the MCP server for one request.
 *
 * @param defaultScopes - the scopes every call needs (checked before this server runs).
 * @param calls - where each tool call is recorded.
 * @param refusedForScope - told when a request is refused for a missing scope.
 * @returns the server.
 */
export function createProtectedMcpServer(
  defaultScopes: readonly [string, ...string[]],
  calls: ProtectedToolCall[],
  refusedForScope: () => void,
): McpServer {
  const server = new McpServer({ name: "protected", version: "1.0.0" });
  const needsReports = requireScopes(...defaultScopes, reportsScope);

  server.registerTool(
    "whoami",
    {
      title: "Who am I",
      description: "Says who the access token belongs to.",
      annotations: { readOnlyHint: true, openWorldHint: false },
      _meta: { ui: { resourceUri: whoamiViewUri } },
    },
    (context) => {
      const caller = callerOf(context);
      calls.push({ tool: "whoami", ...caller });
      return { content: [{ type: "text", text: `Signed in as ${caller.subject}` }] };
    },
  );

  server.registerTool(
    "list_reports",
    {
      title: "List reports",
      description: `Lists the reports; needs the scope ${reportsScope}.`,
      annotations: { readOnlyHint: true, openWorldHint: false },
      scopeChallenge: (challengeContext) => {
        const challenge = needsReports(challengeContext);
        if (challenge !== undefined) refusedForScope();
        return challenge;
      },
    },
    (context) => {
      calls.push({ tool: "list_reports", ...callerOf(context) });
      return { content: [{ type: "text", text: "Quarterly report, Annual report" }] };
    },
  );

  server.registerPrompt(
    "greeting",
    {
      title: "Greeting",
      description: "Greets someone by name.",
      argsSchema: z.object({ name: z.string().describe("Who to greet") }),
    },
    ({ name }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Say hello to ${name}.` } }],
    }),
  );

  server.registerResource(
    "welcome",
    "notes://welcome",
    { title: "Welcome note", mimeType: "text/plain", description: "A short welcome note." },
    (uri) => ({
      contents: [
        { uri: uri.href, mimeType: "text/plain", text: "Welcome to the protected server." },
      ],
    }),
  );

  server.registerResource(
    "whoami-view",
    whoamiViewUri,
    { mimeType: viewMimeType, description: "The view of whoami." },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: viewMimeType, text: whoamiView }] }),
  );

  return server;
}
