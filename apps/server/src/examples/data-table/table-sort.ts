// Sorting the Data table's rows, as a pure function the page uses on a header click. Text columns
// follow the table's own order (regions and months as listed, not alphabetically) so "month"
// sorts Jan, Feb, Mar rather than Apr, Feb, Jan.
import { MONTHS, REGIONS, type ColumnKey, type SalesRow } from "./sales-data";

/** Which way a column is sorted. */
export type SortDirection = "ascending" | "descending";

/** A sort: a column and a direction. */
export interface SortOrder {
  key: ColumnKey;
  direction: SortDirection;
}

const ORDER: Readonly<Record<"region" | "month", readonly string[]>> = {
  region: REGIONS,
  month: MONTHS,
};

function rank(key: "region" | "month", value: string): number {
  const index = ORDER[key].indexOf(value);
  return index === -1 ? Number.MAX_SAFE_INTEGER : index;
}

function compare(left: SalesRow, right: SalesRow, key: ColumnKey): number {
  if (key === "units" || key === "revenue") return left[key] - right[key];
  return rank(key, left[key]) - rank(key, right[key]) || left[key].localeCompare(right[key]);
}

/**
 * Sorts rows by one column. Stable: rows that compare equal keep their order.
 *
 * @returns a new array; the input is not changed.
 */
export function sortRows(rows: readonly SalesRow[], order: SortOrder): SalesRow[] {
  const sign = order.direction === "ascending" ? 1 : -1;
  return [...rows].sort((left, right) => sign * compare(left, right, order.key));
}

/**
 * The sort after a click on a column's header: the same column flips direction; another column
 * starts descending for numbers (largest first) and ascending for text.
 *
 * @returns the new sort.
 */
export function nextSort(current: SortOrder | undefined, key: ColumnKey): SortOrder {
  if (current?.key === key) {
    return { key, direction: current.direction === "ascending" ? "descending" : "ascending" };
  }
  const numeric = key === "units" || key === "revenue";
  return { key, direction: numeric ? "descending" : "ascending" };
}
