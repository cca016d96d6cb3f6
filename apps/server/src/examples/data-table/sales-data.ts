// The Data table example's data: a small sales table by region and month, generated from the
// year with a seeded pseudo-random sequence, so the same year always gives the same rows and no
// network or clock is involved. Also the shape of the tool's structured result.
import { z } from "zod";

/** The regions of the table, in display order. */
export const REGIONS = ["North", "South", "East", "West"] as const;

/** The months of the table (the first half of the year), in display order. */
export const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun"] as const;

/** The year `show-table` uses when none is given. */
export const DEFAULT_YEAR = 2025;

/** The earliest and latest year `show-table` accepts. */
export const YEAR_RANGE = { min: 2000, max: 2100 } as const;

/** The columns a row has, in display order. */
export const COLUMN_KEYS = ["region", "month", "units", "revenue"] as const;

/** The key of one column. */
export type ColumnKey = (typeof COLUMN_KEYS)[number];

/** One row: the units sold and the revenue of one region in one month. */
export interface SalesRow {
  region: string;
  month: string;
  units: number;
  revenue: number;
}

/** The `outputSchema` of `show-table`, as a zod object shape. */
export const salesTableShape = {
  title: z.string(),
  year: z.number().int(),
  columns: z.array(z.object({ key: z.enum(COLUMN_KEYS), label: z.string(), numeric: z.boolean() })),
  rows: z.array(
    z.object({
      region: z.string(),
      month: z.string(),
      units: z.number().int(),
      revenue: z.number().int(),
    }),
  ),
  totals: z.object({ units: z.number().int(), revenue: z.number().int() }),
};

/** The structured result of `show-table`. */
export type SalesTable = z.infer<z.ZodObject<typeof salesTableShape>>;

const COLUMNS: SalesTable["columns"] = [
  { key: "region", label: "Region", numeric: false },
  { key: "month", label: "Month", numeric: false },
  { key: "units", label: "Units", numeric: true },
  { key: "revenue", label: "Revenue", numeric: true },
];

// Price per unit by region, and a seasonal factor by month, so the table has a visible shape.
const UNIT_PRICE: Readonly<Record<string, number>> = { North: 42, South: 37, East: 45, West: 40 };
const SEASON = [0.8, 0.85, 1, 1.1, 1.2, 1.3] as const;

/** Mulberry32: a tiny, well-mixed 32-bit generator; plenty for sample data. */
function sequence(seed: number): () => number {
  let value = seed >>> 0;
  return () => {
    value = (value + 0x6d2b79f5) >>> 0;
    let mixed = value;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Generates the sales table of a year: one row per region and month, regions outermost.
 *
 * @param year - the year; the same year always gives the same rows.
 * @returns the table, with its columns and totals.
 */
export function salesTable(year: number = DEFAULT_YEAR): SalesTable {
  const next = sequence(year);
  const rows: SalesRow[] = [];
  for (const region of REGIONS) {
    for (const [index, month] of MONTHS.entries()) {
      const units = Math.round((60 + next() * 140) * (SEASON[index] ?? 1));
      rows.push({ region, month, units, revenue: units * (UNIT_PRICE[region] ?? 40) });
    }
  }
  const totals = rows.reduce(
    (sum, row) => ({ units: sum.units + row.units, revenue: sum.revenue + row.revenue }),
    { units: 0, revenue: 0 },
  );
  return { title: `Sample sales, ${year}`, year, columns: COLUMNS, rows, totals };
}

/**
 * Adds up the revenue of each region, in {@link REGIONS} order (the page's bar chart).
 *
 * @returns one entry per region that has rows.
 */
export function revenueByRegion(
  rows: readonly SalesRow[],
): Array<{ region: string; revenue: number }> {
  const sums = new Map<string, number>();
  for (const row of rows) sums.set(row.region, (sums.get(row.region) ?? 0) + row.revenue);
  return [...sums].map(([region, revenue]) => ({ region, revenue }));
}

/**
 * The one-paragraph summary `show-table` gives as text (what a model sees when it reads text).
 *
 * @returns the summary.
 */
export function salesSummary(table: SalesTable): string {
  const best = revenueByRegion(table.rows).reduce<{ region: string; revenue: number } | undefined>(
    (top, entry) => (top === undefined || entry.revenue > top.revenue ? entry : top),
    undefined,
  );
  return (
    `${table.title}: ${table.rows.length} rows (${REGIONS.length} regions, ${MONTHS[0]} to ${MONTHS[MONTHS.length - 1]}), ` +
    `${table.totals.units} units, revenue ${table.totals.revenue}` +
    (best === undefined ? "." : `; ${best.region} sold the most (${best.revenue}).`)
  );
}
