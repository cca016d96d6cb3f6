import { describe, expect, it } from "vitest";
import { z } from "zod";
import { listedTool, openSource, textOf, viewOf, visibilityOf } from "../test-support";
import { dataTableApp } from "./app";
import { DEFAULT_YEAR, MONTHS, REGIONS, salesTableShape } from "./sales-data";

const tableSchema = z.strictObject(salesTableShape);

describe("the Data table app", () => {
  it("lists show-table for the model with its page, hints and output schema", async () => {
    const source = await openSource(dataTableApp());
    const tool = await listedTool(source, "show-table");
    expect(tool.title).toBe("Show table");
    expect(visibilityOf(tool)).toContain("model");
    expect(viewOf(tool)).toBe("ui://data-table");
    expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(Object.keys(tool.outputSchema?.properties ?? {})).toEqual([
      "title",
      "year",
      "columns",
      "rows",
      "totals",
    ]);
    expect(tool.inputSchema.required ?? []).toEqual([]);
  });

  it("answers structured rows that match the output schema, with consistent totals", async () => {
    const source = await openSource(dataTableApp());
    const result = await source.callTool("show-table", {});
    expect(result.isError).toBeFalsy();
    const table = tableSchema.parse(result.structuredContent);
    expect(table.year).toBe(DEFAULT_YEAR);
    expect(table.title).toBe(`Sample sales, ${DEFAULT_YEAR}`);
    expect(table.rows).toHaveLength(REGIONS.length * MONTHS.length);
    expect(table.columns.map((column) => column.key)).toEqual([
      "region",
      "month",
      "units",
      "revenue",
    ]);
    expect(new Set(table.rows.map((row) => row.region))).toEqual(new Set(REGIONS));
    expect(table.totals.units).toBe(table.rows.reduce((sum, row) => sum + row.units, 0));
    expect(table.totals.revenue).toBe(table.rows.reduce((sum, row) => sum + row.revenue, 0));
    expect(textOf(result)).toMatch(
      new RegExp(
        `^Sample sales, ${DEFAULT_YEAR}: 24 rows \\(4 regions, Jan to Jun\\), ${table.totals.units} units, revenue ${table.totals.revenue}; \\w+ sold the most \\(\\d+\\)\\.$`,
        "u",
      ),
    );
  });

  it("gives the same rows for the same year, in any instance, and other rows for another year", async () => {
    const app = dataTableApp();
    const first = await openSource(app);
    const second = await openSource(app);
    const a = await first.callTool("show-table", { year: 2024 });
    const b = await second.callTool("show-table", { year: 2024 });
    expect(a.structuredContent).toEqual(b.structuredContent);
    const other = await first.callTool("show-table", { year: 2023 });
    expect(tableSchema.parse(other.structuredContent).rows).not.toEqual(
      tableSchema.parse(a.structuredContent).rows,
    );
  });

  it("refuses a year outside the range", async () => {
    const source = await openSource(dataTableApp());
    const result = await source.callTool("show-table", { year: 1999 });
    expect(result.isError).toBe(true);
  });
});
