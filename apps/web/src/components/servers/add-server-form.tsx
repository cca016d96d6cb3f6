import { useEffect, useId, useState, type FormEvent } from "react";
import { addConnector, connectorsPolicy, type ConnectorsPolicy } from "../../actions/connectors";
import { useSocket } from "../../socket/socket-context";

/**
 * "Add a server", when the host allows people to add their own (`connectors:policy`): the
 * server's address, Add, the addresses the operator allows as a hint, and the host's sentence
 * when it refuses. Shows nothing where adding servers is off.
 */
export function AddServerForm() {
  const socket = useSocket();
  const [policy, setPolicy] = useState<ConnectorsPolicy | null>(null);
  const [url, setUrl] = useState("");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: "error" | "note"; text: string } | null>(null);
  const inputId = useId();
  const hintId = useId();

  useEffect(() => {
    let live = true;
    void connectorsPolicy(socket).then((answer) => {
      if (live) setPolicy(answer);
    });
    return () => {
      live = false;
    };
  }, [socket]);

  if (policy === null || !policy.allowed) return null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = url.trim();
    if (address === "" || busy) return;
    setBusy(true);
    setOutcome(null);
    void addConnector(socket, address).then((answer) => {
      setBusy(false);
      if ("error" in answer) {
        setOutcome({ kind: "error", text: answer.error });
        return;
      }
      setUrl("");
      setOutcome({ kind: "note", text: `Added ${answer.name}; choose Connect to sign in to it.` });
    });
  };

  return (
    <form className="add-server-form" data-testid="add-server-form" onSubmit={submit}>
      <label htmlFor={inputId}>Add a server</label>
      <div className="add-server-fields">
        <input
          id={inputId}
          type="url"
          inputMode="url"
          placeholder="https://mcp.example.com/mcp"
          value={url}
          aria-describedby={hintId}
          data-testid="add-server-url"
          onChange={(event) => setUrl(event.target.value)}
        />
        <button
          type="submit"
          className="button button-small"
          data-testid="add-server-submit"
          disabled={busy || url.trim() === ""}
        >
          Add
        </button>
      </div>
      <p className="server-detail" id={hintId} data-testid="add-server-hint">
        Allowed addresses:{" "}
        {policy.patterns.map((pattern) => (
          <code key={pattern}>{pattern}</code>
        ))}
      </p>
      {outcome !== null ? (
        <p
          className={outcome.kind === "error" ? "inline-error server-message" : "server-message"}
          role={outcome.kind === "error" ? "alert" : "status"}
          data-testid="add-server-message"
        >
          {outcome.text}
        </p>
      ) : null}
    </form>
  );
}
