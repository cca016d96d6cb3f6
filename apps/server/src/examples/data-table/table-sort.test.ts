import { describe, expect, it } from "vitest";
import { revenueByRegion, salesTable, type SalesRow } from "./sales-data";
import { nextSort, sortRows } from "./table-sort";

const rows: SalesRow[] = [
  { region: "West", month: "Feb", units: 5, revenue: 200 },
  { region: "North", month: "Jan", units: 9, revenue: 100 },
  { region: "East", month: "Jun", units: 5, revenue: 300 },
];

describe("sortRows", () => {
  it("sorts numbers either way and keeps ties in order", () => {
    expect(
      sortRows(rows, { key: "units", direction: "ascending" }).map((row) => row.region),
    ).toEqual(["West", "East", "North"]);
    expect(
      sortRows(rows, { key: "revenue", direction: "descending" }).map((row) => row.revenue),
    ).toEqual([300, 200, 100]);
  });

  it("sorts regions and months in the table's own order, not alphabetically", () => {
    expect(
      sortRows(rows, { key: "month", direction: "ascending" }).map((row) => row.month),
    ).toEqual(["Jan", "Feb", "Jun"]);
    expect(
      sortRows(rows, { key: "region", direction: "ascending" }).map((row) => row.region),
    ).toEqual(["North", "East", "West"]);
  });

  it("leaves its input alone", () => {
    const copy = structuredClone(rows);
    sortRows(rows, { key: "units", direction: "descending" });
    expect(rows).toEqual(copy);
  });
});

describe("nextSort", () => {
  it("starts numbers descending and text ascending, and flips on a second click", () => {
    expect(nextSort(undefined, "revenue")).toEqual({ key: "revenue", direction: "descending" });
    expect(nextSort(undefined, "month")).toEqual({ key: "month", direction: "ascending" });
    expect(nextSort({ key: "month", direction: "ascending" }, "month")).toEqual({
      key: "month",
      direction: "descending",
    });
    expect(nextSort({ key: "month", direction: "ascending" }, "units").direction).toBe(
      "descending",
    );
  });
});

describe("revenueByRegion", () => {
  it("adds up each region's revenue in region order", () => {
    const table = salesTable(2025);
    const sums = revenueByRegion(table.rows);
    expect(sums.map((entry) => entry.region)).toEqual(["North", "South", "East", "West"]);
    expect(sums.reduce((total, entry) => total + entry.revenue, 0)).toBe(table.totals.revenue);
  });
});
