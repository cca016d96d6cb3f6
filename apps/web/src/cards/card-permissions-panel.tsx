import type { PagePermissionName } from "@mcp-chat-host/protocol";
import { permissionLabels, permissionPhrases } from "../consent/permission-names";
import type { CardPermissions } from "../state/types/card-view-state";

/** Props of {@link CardPermissionsPanel}. */
export interface CardPermissionsPanelProps {
  source: string;
  permissions: CardPermissions;
  /** The person allows or withdraws one permission for the card's source. */
  onChange: (name: PagePermissionName, granted: boolean) => void;
}

/**
 * The card's permissions: each one its view declared, whether the person allowed it for the
 * card's source, and a button to withdraw or allow it. A change reloads the source's open cards
 * (a browser applies a frame's permissions only when it loads).
 *
 * @returns the panel.
 */
export function CardPermissionsPanel(props: CardPermissionsPanelProps) {
  const { declared, granted } = props.permissions;
  return (
    <div className="mch-card__panel" data-testid="card-permissions-panel">
      <p className="mch-card__panel-label">Permissions of every card from {props.source}</p>
      <ul className="mch-card__permission-list">
        {declared.map((name) => {
          const allowed = granted.includes(name);
          return (
            <li key={name} data-testid="card-permission" data-permission={name}>
              <span>
                {permissionLabels[name]}: {allowed ? "allowed" : "not allowed"}
              </span>{" "}
              <button
                type="button"
                className="mch-card__link-button"
                data-testid={allowed ? "card-permission-withdraw" : "card-permission-allow"}
                onClick={() => props.onChange(name, !allowed)}
              >
                {allowed ? "Withdraw" : `Allow ${permissionPhrases[name]}`}
              </button>
            </li>
          );
        })}
      </ul>
      <p className="mch-card__muted">A change reloads the app.</p>
    </div>
  );
}
