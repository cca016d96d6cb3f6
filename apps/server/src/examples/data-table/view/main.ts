/// <reference lib="dom" />
// The Data table page. It renders the tool result's `structuredContent` (rows checked by the
// tool's output schema) as a table sorted by a header click and as a bar chart of revenue by
// region, asks the host for full screen (`ui/request-display-mode`, only for the modes declared in
// the App's capabilities) and opens its docs link through the host (`ui/open-link`), since a
// sandboxed frame cannot navigate by itself.
import { App, type McpUiDisplayMode } from "@modelcontextprotocol/ext-apps";
import { byTestId } from "../../view-kit/dom";
import { applyHostContext } from "../../view-kit/host-context";
import { requestErrorMessage, resultText } from "../../view-kit/messages";
import { StatusLine } from "../../view-kit/status-line";
import { revenueByRegion, type SalesRow, type SalesTable } from "../sales-data";
import { nextSort, sortRows, type SortOrder } from "../table-sort";

const SVG = "http://www.w3.org/2000/svg";

const title = byTestId("table-title", HTMLElement);
const table = byTestId("table", HTMLTableElement);
const chart = byTestId("table-chart", SVGSVGElement);
const fullscreenButton = byTestId("table-fullscreen", HTMLButtonElement);
const docsLink = byTestId("table-docs-link", HTMLAnchorElement);
const status = new StatusLine(byTestId("table-status", HTMLElement));

const app = new App(
  { name: "data-table", version: "1.0.0" },
  { availableDisplayModes: ["inline", "fullscreen"] },
  { autoResize: true },
);

let data: SalesTable | undefined;
let sort: SortOrder | undefined;
let displayMode: McpUiDisplayMode = "inline";

function isSalesTable(value: unknown): value is SalesTable {
  const candidate = value as Partial<SalesTable> | null | undefined;
  return (
    typeof candidate?.title === "string" &&
    Array.isArray(candidate.columns) &&
    Array.isArray(candidate.rows) &&
    typeof candidate.totals === "object"
  );
}

function cell(tag: "td" | "th", text: string, numeric: boolean): HTMLTableCellElement {
  const element = document.createElement(tag);
  element.textContent = text;
  if (numeric) element.className = "numeric";
  return element;
}

function renderTable(current: SalesTable): void {
  const header = document.createElement("tr");
  for (const column of current.columns) {
    const heading = cell("th", "", column.numeric);
    heading.scope = "col";
    heading.setAttribute("aria-sort", sort?.key === column.key ? sort.direction : "none");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = column.label;
    button.dataset["testid"] = `table-sort-${column.key}`;
    button.addEventListener("click", () => {
      sort = nextSort(sort, column.key);
      renderTable(current);
    });
    heading.append(button);
    header.append(heading);
  }
  table.tHead?.replaceChildren(header);

  const rows: readonly SalesRow[] =
    sort === undefined ? current.rows : sortRows(current.rows, sort);
  table.tBodies[0]?.replaceChildren(
    ...rows.map((row) => {
      const line = document.createElement("tr");
      line.dataset["testid"] = "table-row";
      for (const column of current.columns) {
        line.append(cell("td", String(row[column.key]), column.numeric));
      }
      return line;
    }),
  );

  const totals = document.createElement("tr");
  for (const column of current.columns) {
    const value =
      column.key === "units" || column.key === "revenue"
        ? String(current.totals[column.key])
        : column.key === "region"
          ? "Total"
          : "";
    totals.append(cell("td", value, column.numeric));
  }
  table.tFoot?.replaceChildren(totals);
}

function renderChart(current: SalesTable): void {
  const entries = revenueByRegion(current.rows);
  const largest = Math.max(1, ...entries.map((entry) => entry.revenue));
  const barHeight = 18;
  const gap = 6;
  const labelWidth = 56;
  const width = 320;
  const barSpace = width - labelWidth - 64;
  chart.setAttribute("viewBox", `0 0 ${width} ${entries.length * (barHeight + gap)}`);
  chart.replaceChildren(
    ...entries.map((entry, index) => {
      const group = document.createElementNS(SVG, "g");
      const y = index * (barHeight + gap);
      const label = document.createElementNS(SVG, "text");
      label.setAttribute("x", "0");
      label.setAttribute("y", String(y + barHeight * 0.7));
      label.textContent = entry.region;
      const bar = document.createElementNS(SVG, "rect");
      const barWidth = Math.max(1, Math.round((entry.revenue / largest) * barSpace));
      bar.setAttribute("class", "bar");
      bar.setAttribute("x", String(labelWidth));
      bar.setAttribute("y", String(y));
      bar.setAttribute("width", String(barWidth));
      bar.setAttribute("height", String(barHeight));
      bar.setAttribute("rx", "3");
      bar.dataset["region"] = entry.region;
      const value = document.createElementNS(SVG, "text");
      value.setAttribute("x", String(labelWidth + barWidth + 4));
      value.setAttribute("y", String(y + barHeight * 0.7));
      value.textContent = String(entry.revenue);
      group.append(label, bar, value);
      return group;
    }),
  );
}

function showDisplayMode(mode: McpUiDisplayMode): void {
  displayMode = mode;
  document.documentElement.dataset["displayMode"] = mode;
  fullscreenButton.textContent = mode === "fullscreen" ? "Exit full screen" : "Full screen";
}

/** Whether the host offers full screen; a host that does not say is given the benefit of the doubt. */
function fullscreenOffered(): boolean {
  const offered = app.getHostContext()?.availableDisplayModes;
  return offered === undefined || offered.includes("fullscreen");
}

app.ontoolinput = (params) => {
  const year = (params.arguments as Record<string, unknown> | undefined)?.["year"];
  status.show(typeof year === "number" ? `Loading the table for ${year}…` : "Loading the table…");
};

app.ontoolresult = (result) => {
  if (result.isError === true) {
    status.show(resultText(result, "The table could not be loaded."), "error");
    return;
  }
  if (!isSalesTable(result.structuredContent)) {
    status.show("The tool's result has no table to show.", "error");
    return;
  }
  data = result.structuredContent;
  title.textContent = data.title;
  renderTable(data);
  renderChart(data);
  status.show(`${data.rows.length} rows. Click a column's name to sort by it.`);
};

app.ontoolcancelled = (params) => {
  status.show(
    params.reason === undefined
      ? "Loading the table was cancelled."
      : `Loading the table was cancelled: ${params.reason}`,
    "error",
  );
};

app.onhostcontextchanged = (context) => {
  applyHostContext(context);
  if (context.displayMode !== undefined) showDisplayMode(context.displayMode);
  if (context.availableDisplayModes !== undefined) fullscreenButton.disabled = !fullscreenOffered();
};

app.onteardown = () => ({});

fullscreenButton.addEventListener("click", async () => {
  const wanted: McpUiDisplayMode = displayMode === "fullscreen" ? "inline" : "fullscreen";
  try {
    const result = await app.requestDisplayMode({ mode: wanted });
    showDisplayMode(result.mode);
    if (result.mode !== wanted) status.show("The host kept the current display mode.");
  } catch (error) {
    status.show(requestErrorMessage(error), "error");
  }
});

docsLink.addEventListener("click", async (event) => {
  // The host opens the link (a sandboxed frame may not open windows itself).
  event.preventDefault();
  try {
    const result = await app.openLink({ url: docsLink.href });
    if (result.isError === true) status.show("The host did not open the link.", "error");
    else status.show("Opened the docs.", "success");
  } catch (error) {
    status.show(requestErrorMessage(error), "error");
  }
});

async function start(): Promise<void> {
  try {
    await app.connect();
  } catch (error) {
    status.show(`Could not connect to the host: ${requestErrorMessage(error)}`, "error");
    return;
  }
  const context = app.getHostContext();
  applyHostContext(context);
  showDisplayMode(context?.displayMode ?? "inline");
  fullscreenButton.disabled = !fullscreenOffered();
  if (data === undefined) status.show("Connected. Waiting for the table…");
}

void start();
