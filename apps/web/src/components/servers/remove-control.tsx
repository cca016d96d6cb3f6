import { removeConnector } from "../../actions/connectors";
import { ConfirmedAction } from "./confirmed-action";

/** The question Remove asks first. */
export function removeQuestion(name: string): string {
  return `Remove ${name}? Your sign-in to it is revoked and its tools leave your chats.`;
}

/** Remove, asked first, for a server the person added themselves. */
export function RemoveControl(props: { name: string }) {
  const { name } = props;
  return (
    <ConfirmedAction
      name={name}
      act={removeConnector}
      words={{
        id: "remove",
        label: "Remove",
        question: removeQuestion(name),
        confirm: "Yes, remove",
        keep: "Keep",
        keepName: `Keep ${name}`,
      }}
    />
  );
}
