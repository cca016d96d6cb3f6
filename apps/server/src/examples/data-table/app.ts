// The Data table example: a tool whose result is structured data (declared with an output
// schema) that the page renders as a sortable table and a small bar chart. The page can ask for
// full screen and opens its docs link through the host.
import { McpApp, appTool } from "@mcp-chat-host/host";
import { z } from "zod";
import { readViewHtml, type ExampleAppOptions } from "../view-file";
import { DEFAULT_YEAR, YEAR_RANGE, salesSummary, salesTable, salesTableShape } from "./sales-data";

/**
 * Builds the Data table app (`data-table`, "Data table"). One tool:
 * - `show-table` (model; shows the page; read-only, closed world): `{ year? }` gives a generated,
 *   deterministic sales table (4 regions by 6 months) as `structuredContent`, checked against its
 *   `outputSchema`, and a one-line summary as text.
 *
 * @param options - where the built page lives.
 * @returns the app; its page is read from `data-table.html` at every resource read.
 */
export function dataTableApp(options: ExampleAppOptions = {}): McpApp {
  return new McpApp({
    name: "data-table",
    title: "Data table",
    version: "1.0.0",
    html: () => readViewHtml("data-table", options.viewsDirectory),
    prefersBorder: true,
    tools: [
      appTool({
        name: "show-table",
        title: "Show table",
        description:
          "Shows a table of sample sales by region and month, with a chart, in the conversation. " +
          "The data is generated (not real) and the same for the same year.",
        inputSchema: {
          year: z
            .number()
            .int()
            .min(YEAR_RANGE.min)
            .max(YEAR_RANGE.max)
            .optional()
            .describe(`The year of the sample data; ${DEFAULT_YEAR} when omitted.`),
        },
        outputSchema: salesTableShape,
        annotations: { readOnlyHint: true, openWorldHint: false },
        handler: (args) => {
          const table = salesTable(args.year ?? DEFAULT_YEAR);
          return {
            content: [{ type: "text", text: salesSummary(table) }],
            structuredContent: table,
          };
        },
      }),
    ],
  });
}
