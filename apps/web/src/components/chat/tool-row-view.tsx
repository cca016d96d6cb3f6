import type { ChatMessage } from "@mcp-chat-host/protocol";
import { useHostStore } from "../../state/host-store";
import { noClock } from "../../state/tools-slice";
import type { ToolPart } from "../../state/types/messages";
import type { ToolProgress } from "../../state/types/tools";
import { formatDuration, prettyJson } from "../../ui/format";
import { useNow } from "../../ui/use-now";
import { ToolRowSignIn } from "../servers/tool-row-sign-in";
import { labelToolCall } from "./tool-label";

/**
 * Where a call's row says it is: `running` while the model writes its input or it runs, `done` /
 * `error` once it returned, `refused` when it was refused before it ran, `unfinished` when the
 * reply ended (stopped, interrupted) before the call did.
 */
type ToolRowStatus = "running" | "done" | "error" | "refused" | "unfinished";

const statusLabels: Record<ToolRowStatus, string> = {
  running: "Running",
  done: "Done",
  error: "Failed",
  refused: "Refused",
  unfinished: "Did not finish",
};

/** The row's status: the part's state, read with whether its reply is still being written. */
function rowStatus(part: ToolPart, streaming: boolean): ToolRowStatus {
  switch (part.state) {
    case "output-available":
      return "done";
    case "output-error":
      return "error";
    case "output-denied":
      return "refused";
    default:
      return streaming ? "running" : "unfinished";
  }
}

function ProgressLine(props: { progress: ToolProgress }) {
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
 * A model tool call as a compact row, drawn from its tool part: the tool's own name and source
 * (the model's name for it, when different, as a hint and in the opened row), a spinner and the
 * elapsed time while it runs (a progress bar when the server reports progress with a total), its
 * outcome (with "Connect <server>" when its server needs the person to sign in), and its input
 * and output when the person opens it.
 */
export function ToolRowView(props: { message: ChatMessage; part: ToolPart }) {
  const { message, part } = props;
  const clock = useHostStore((state) => state.toolClocks[part.toolCallId]) ?? noClock;
  const tools = useHostStore((state) => state.chatTools[message.chatId]);
  const status = rowStatus(part, message.status === "streaming");
  const running = status === "running";
  const now = useNow(running);
  const label = labelToolCall(
    { name: part.name, source: part.source ?? null, modelName: part.modelName ?? null },
    tools,
  );
  let timing = "";
  if (clock.durationMs !== null) timing = formatDuration(clock.durationMs);
  else if (running && clock.startedAt !== null) timing = formatDuration(now - clock.startedAt);
  const ended = status === "done" || (status === "error" && part.output !== undefined);
  return (
    <details className={`tool-row tool-row-${status}`} data-testid="tool-row" data-status={status}>
      <summary>
        <span className="tool-row-icon" aria-hidden="true">
          {running ? <span className="spinner" /> : status === "done" ? "✓" : "!"}
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
        <span className="tool-row-status">{statusLabels[status]}</span>
        {timing !== "" ? (
          <span className="tool-row-time" data-testid="tool-row-time">
            {timing}
          </span>
        ) : null}
        {running && clock.progress !== null ? <ProgressLine progress={clock.progress} /> : null}
      </summary>
      <div className="tool-row-body">
        {part.errorText !== undefined ? <p className="tool-row-reason">{part.errorText}</p> : null}
        {status === "error" || status === "refused" ? (
          <ToolRowSignIn source={part.source ?? null} />
        ) : null}
        {label.modelName !== null ? (
          <p className="tool-row-model-name" data-testid="tool-row-model-name">
            The model calls this tool <code>{label.modelName}</code>.
          </p>
        ) : null}
        <h4>Arguments</h4>
        <pre className="json">{prettyJson(part.input ?? {})}</pre>
        {ended ? (
          <>
            <h4>{status === "error" ? "Error" : "Result"}</h4>
            <pre className="json">{prettyJson(part.output)}</pre>
          </>
        ) : null}
      </div>
    </details>
  );
}
