// The two tools that let a model read a connection's allowed resources and prompts. Their
// argument is an enum of exactly the allowed items, and they are annotated open-world because
// the content comes from outside the host.
import type {
  GetPromptResult,
  ReadResourceResult,
  ToolAnnotations,
} from "@modelcontextprotocol/client";
import type { McpCallOptions, McpProvenanced } from "./mcp-connection-types";
import type { McpOwner } from "./mcp-connection-validation";
import { McpValidationError } from "./connection-errors";

/** A tool built by `McpConnection.capabilityTools()`. */
export interface McpCapabilityTool {
  /** `<prefix>_read_resource` or `<prefix>_get_prompt`. */
  name: string;
  description: string;
  /** A JSON Schema object with one required enum argument (`uri` or `name`). */
  inputSchema: {
    type: "object";
    properties: Record<string, { type: "string"; enum: string[]; description: string }>;
    required: string[];
    additionalProperties: false;
  };
  /** Read-only, not destructive, not idempotent, open world. */
  annotations: ToolAnnotations;
  source: {
    type: "mcp";
    server: string;
    operation: "resources/read" | "prompts/get";
    connectionId: string;
  };
  owner: Readonly<McpOwner>;
  /** Whether the tool's connection is still open (false once it ended). Local. */
  isCurrent(): boolean;
  /**
   * Reads the resource or gets the prompt named in `args`, as `options.owner`.
   *
   * @throws McpOwnerMismatchError or McpValidationError before anything is sent, then the
   *   errors of `readResource` / `getPrompt`.
   */
  call(
    args: Record<string, unknown> | undefined,
    options: McpCallOptions,
  ): Promise<McpProvenanced<ReadResourceResult | GetPromptResult>>;
}

/** What {@link buildCapabilityTools} needs from its connection. */
export interface CapabilityToolsContext {
  prefix: string;
  server: string;
  connectionId: string;
  owner: Readonly<McpOwner>;
  resources: readonly string[];
  prompts: readonly string[];
  checkCaller: (options: McpCallOptions) => void;
  isCurrent: () => boolean;
  readResource: (uri: string) => Promise<McpProvenanced<ReadResourceResult>>;
  getPrompt: (name: string) => Promise<McpProvenanced<GetPromptResult>>;
}

/** The read-resource tool's description, as the model sees it. */
export const readResourceDescription =
  "Read one host-allowed MCP resource. Returned links are not fetched.";
/** The get-prompt tool's description, as the model sees it. */
export const getPromptDescription =
  "Retrieve one host-allowed MCP prompt without adding it to the conversation. Prompts requiring arguments must be retrieved by the host.";

const capabilityAnnotations: ToolAnnotations = Object.freeze({
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
});

/**
 * Builds the capability tools for a connection's allowlists.
 *
 * @returns zero, one or two tools: read-resource when resources are allowed, get-prompt when
 *   prompts are allowed.
 */
export function buildCapabilityTools(
  context: CapabilityToolsContext,
): readonly McpCapabilityTool[] {
  const tools: McpCapabilityTool[] = [];
  if (context.resources.length > 0) {
    tools.push(
      capabilityTool(context, {
        name: `${context.prefix}_read_resource`,
        description: readResourceDescription,
        argument: "uri",
        argumentDescription: "The URI of the resource to read.",
        allowed: context.resources,
        operation: "resources/read",
        run: (value) => context.readResource(value),
      }),
    );
  }
  if (context.prompts.length > 0) {
    tools.push(
      capabilityTool(context, {
        name: `${context.prefix}_get_prompt`,
        description: getPromptDescription,
        argument: "name",
        argumentDescription: "The name of the prompt to retrieve.",
        allowed: context.prompts,
        operation: "prompts/get",
        run: (value) => context.getPrompt(value),
      }),
    );
  }
  return Object.freeze(tools);
}

function capabilityTool(
  context: CapabilityToolsContext,
  spec: {
    name: string;
    description: string;
    argument: "uri" | "name";
    argumentDescription: string;
    allowed: readonly string[];
    operation: "resources/read" | "prompts/get";
    run: (value: string) => Promise<McpProvenanced<ReadResourceResult | GetPromptResult>>;
  },
): McpCapabilityTool {
  return Object.freeze({
    name: spec.name,
    description: spec.description,
    inputSchema: {
      type: "object" as const,
      properties: {
        [spec.argument]: {
          type: "string" as const,
          enum: [...spec.allowed],
          description: spec.argumentDescription,
        },
      },
      required: [spec.argument],
      additionalProperties: false as const,
    },
    annotations: capabilityAnnotations,
    source: Object.freeze({
      type: "mcp" as const,
      server: context.server,
      operation: spec.operation,
      connectionId: context.connectionId,
    }),
    owner: context.owner,
    isCurrent: context.isCurrent,
    call: async (args: Record<string, unknown> | undefined, options: McpCallOptions) => {
      context.checkCaller(options);
      const value = args?.[spec.argument];
      if (typeof value !== "string") {
        throw new McpValidationError(`\`${spec.argument}\` must be one of the allowed values.`);
      }
      return spec.run(value);
    },
  });
}
