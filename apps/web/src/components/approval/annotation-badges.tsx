import type { ToolAnnotations } from "@mcp-chat-host/protocol";

/**
 * The hints a tool declares about itself, as badges: read-only, destructive, open world,
 * idempotent. A tool that declares none says so: MCP then assumes the worst (it may change or
 * delete things and reach outside systems).
 */
export function AnnotationBadges(props: { annotations: ToolAnnotations | undefined }) {
  const hints = props.annotations ?? {};
  const badges: { label: string; tone: "calm" | "warn"; testId: string }[] = [];
  if (hints.readOnlyHint === true)
    badges.push({ label: "Read-only", tone: "calm", testId: "badge-read-only" });
  if (hints.destructiveHint === true && hints.readOnlyHint !== true) {
    badges.push({ label: "Destructive", tone: "warn", testId: "badge-destructive" });
  }
  if (hints.openWorldHint === true) {
    badges.push({ label: "Open world", tone: "warn", testId: "badge-open-world" });
  }
  if (hints.idempotentHint === true) {
    badges.push({ label: "Idempotent", tone: "calm", testId: "badge-idempotent" });
  }
  if (badges.length === 0) {
    return (
      <p className="badges-none" data-testid="badge-none">
        The tool declares no hints about what it does.
      </p>
    );
  }
  return (
    <ul className="badges" aria-label="What the tool declares">
      {badges.map((badge) => (
        <li key={badge.label} className={`badge badge-${badge.tone}`} data-testid={badge.testId}>
          {badge.label}
        </li>
      ))}
    </ul>
  );
}
