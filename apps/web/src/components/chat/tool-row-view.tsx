import type { ChatMessage } from "@mcp-chat-host/protocol";
import { useHostStore } from "../../state/host-store";
import { toolRowOf, type ToolRow } from "../../state/tools-slice";
import { formatDuration, prettyJson } from "../../ui/format";
import { useNow } from "../../ui/use-now";
import { labelToolCall } from "./tool-label";

const statusLabels: Record<ToolRow["status"], string> = {
  running: "Running",
  done: "Done",
  error: "Failed",
  refused: "Refused",
  unfinished: "Did not finish",
};

function ProgressLine(props: { progress: NonNullable<ToolRow["progress"]> }) {
  const { progress, total, message } = props.progress;
  const known = total !== undefined && total > 0;
  return (
    <span className="tool-progress">
      {known ? (
        <progress value={Math.min(progress, total)} max={total} aria-label="Progress">
          {Math.round((Math.min(progress, total) / total) * 100)}%
        </progress>
      ) : null}
      {message !== undefined ? <span className="tool-progress-message">{message}</span> : null}
    </span>
  );
}

/**
 * A model tool call as a compact row: the tool's own name and source (the model's name for it,
 * when different, as a hint and in the opened row), a spinner and the elapsed time while it runs
 * (a progress bar when the server reports progress with a total), its outcome, and its arguments
 * and result when the person opens it.
 */
export function ToolRowView(props: { message: ChatMessage; toolCallId: string }) {
  const activity = useHostStore((state) => state.toolActivity[props.toolCallId]);
  const row = toolRowOf(props.message, props.toolCallId, activity);
  const tools = useHostStore((state) =>
    row === undefined ? undefined : state.chatTools[row.chatId],
  );
  const running = row?.status === "running";
  const now = useNow(running);
  if (row === undefined) return null;
  const label = labelToolCall(row, tools);
  let timing = "";
  if (row.durationMs !== null) timing = formatDuration(row.durationMs);
  else if (running && row.startedAt !== null) timing = formatDuration(now - row.startedAt);
  return (
    <details
      className={`tool-row tool-row-${row.status}`}
      data-testid="tool-row"
      data-status={row.status}
    >
      <summary>
        <span className="tool-row-icon" aria-hidden="true">
          {running ? <span className="spinner" /> : row.status === "done" ? "✓" : "!"}
        </span>
        <span
          className="tool-row-name"
          data-testid="tool-row-name"
          title={label.modelName !== null ? `The model calls it ${label.modelName}` : undefined}
        >
          {label.name}
        </span>
        {label.source !== null ? (
          <span className="tool-row-source" data-testid="tool-row-source">
            <span className="visually-hidden">from </span>
            {label.source}
          </span>
        ) : null}
        <span className="tool-row-status">{statusLabels[row.status]}</span>
        {timing !== "" ? (
          <span className="tool-row-time" data-testid="tool-row-time">
            {timing}
          </span>
        ) : null}
        {running && row.progress !== null ? <ProgressLine progress={row.progress} /> : null}
      </summary>
      <div className="tool-row-body">
        {row.reason !== null ? <p className="tool-row-reason">{row.reason}</p> : null}
        {label.modelName !== null ? (
          <p className="tool-row-model-name" data-testid="tool-row-model-name">
            The model calls this tool <code>{label.modelName}</code>.
          </p>
        ) : null}
        <h4>Arguments</h4>
        <pre className="json">{prettyJson(row.arguments ?? {})}</pre>
        {row.status === "done" || row.status === "error" ? (
          <>
            <h4>{row.status === "error" ? "Error" : "Result"}</h4>
            <pre className="json">{prettyJson(row.value)}</pre>
          </>
        ) : null}
      </div>
    </details>
  );
}
