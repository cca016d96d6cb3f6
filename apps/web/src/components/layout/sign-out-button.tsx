import { signOut } from "../../actions/sign-out";
import { useHostStore } from "../../state/host-store";

/** "Sign out", shown when the sign-in mode has one (the organisation's OpenID provider). */
export function SignOutButton() {
  const available = useHostStore((state) => state.signOut);
  const user = useHostStore((state) => state.user);
  if (!available) return null;
  const who = user?.name ?? user?.id;
  return (
    <button
      type="button"
      className="icon-button sign-out"
      data-testid="sign-out"
      title={who === undefined ? "Sign out" : `Signed in as ${who}; sign out`}
      onClick={() => void signOut()}
    >
      Sign out
    </button>
  );
}
