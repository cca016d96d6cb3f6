import { errorMessage } from "@mcp-chat-host/protocol";
import type { Tool } from "@modelcontextprotocol/client";

/** Who is in the session that a page's call comes from. */
export interface AppCallSession {
  /** The session id. */
  readonly id: string;
  /** The signed-in user, or null without users (token auth). */
  readonly user: { readonly id: string; readonly name?: string } | null;
}

/**
 * A page's `tools/call`, as the gate's hooks see it. Only calls made by a
 * card's or pane's page are checked: never the model's calls, the call that opens a card, resource
 * reads or pings.
 */
export interface AppCall {
  /** The tool the page wants to call. */
  readonly name: string;
  /** The page's arguments (`{}` when it sent none). */
  readonly arguments: Record<string, unknown>;
  /** The tool's definition from the card's source, annotations included. */
  readonly tool: Tool;
  /** The card or pane whose page calls. */
  readonly instanceId: string;
  /** `card` (in a conversation) or `pane` (opened by the developer). */
  readonly kind: "card" | "pane";
  /** The source's name. */
  readonly source: string;
  /** The owning chat's key when it is a chat registered in this session, else null (panes). */
  readonly chat: string | null;
  /** The card's title. */
  readonly title: string;
  /** The session the page runs in. */
  readonly session: AppCallSession;
  /**
   * Shows the person an approval dialog for this call and resolves with their answer: `true`
   * to allow, a refusal string, or `false`. Other calls and the chat go on while it waits.
   *
   * @param question - an optional sentence shown above the call's details.
   */
  ask(question?: string): Promise<boolean | string>;
}

/**
 * A check on page calls. Returns `true` (allow), `false` (refuse with the default message), a
 * string (refuse with that text; `""` means the default message), or a promise of one of those.
 * Anything else, a throw or a rejected promise refuses the call and logs a warning.
 */
export type OnAppCall = (call: AppCall) => unknown;

/** The gate's answer to a page's call. */
export type AppCallVerdict =
  { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

/**
 * One hook's answer before the call's name is known: a refusal may carry its own reason (null
 * means the default message) and a warning (a hook that broke its contract).
 */
export type HookVerdict =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly reason: string | null; readonly warning?: string };

/** Options of {@link runAppCallChain}. */
export interface AppCallChainOptions {
  /** Receives each warning, already prefixed with which call was refused. */
  readonly warn: (message: string) => void;
}

/** The refusal a restored card gets when it was checked when opened and this session has no check. */
export const UNCHECKED_RESTORED_CARD_REFUSAL =
  "This app's calls were checked when it was opened, and this session has no check for them. Pass `onAppCall` to the chat host or tool that shows it.";

/** The hook that refuses every call of a restored checked card with no check in this session. */
export const refuseUncheckedRestoredCard: OnAppCall = () => UNCHECKED_RESTORED_CARD_REFUSAL;

/**
 * The message a page sees when its call is refused without a reason of its own.
 *
 * @param name - the tool's name.
 * @returns `The host refused the call to "<name>".`
 */
function defaultRefusal(name: string): string {
  return `The host refused the call to "${name}".`;
}

/**
 * Judges what a hook returned: `true` allows;
 * `false` and `""` refuse with the default message; a string refuses with it; a promise is
 * awaited and judged the same way (a rejection refuses with a warning); anything else refuses
 * with a warning naming its type.
 *
 * @param hookResult - the hook's return value.
 * @returns the hook's verdict; never rejects.
 */
export async function appCallVerdict(hookResult: unknown): Promise<HookVerdict> {
  let value = hookResult;
  if (isThenable(value)) {
    try {
      value = await value;
    } catch (error) {
      return refusedWithWarning(
        `onAppCall returned a promise that was rejected: ${errorMessage(error)}`,
      );
    }
  }
  if (value === true) return { allowed: true };
  if (value === false) return { allowed: false, reason: null };
  if (typeof value === "string") return { allowed: false, reason: value === "" ? null : value };
  return refusedWithWarning(
    `onAppCall must return true, false, or a string, not ${describeType(value)}.`,
  );
}

/**
 * Runs a page call through its hooks in order; the first refusal wins and the later hooks don't
 * run. Hooks are deduplicated by identity. With no hooks the call is allowed.
 *
 * @param hooks - the chain from {@link assembleHookChain}.
 * @param call - the page's call.
 * @param options - where warnings go.
 * @returns the verdict; a refusal carries the text the page sees. Never rejects.
 */
export async function runAppCallChain(
  hooks: readonly OnAppCall[],
  call: AppCall,
  options: AppCallChainOptions,
): Promise<AppCallVerdict> {
  for (const hook of new Set(hooks)) {
    let verdict: HookVerdict;
    try {
      verdict = await appCallVerdict(hook(call));
    } catch (error) {
      verdict = refusedWithWarning(`onAppCall failed: ${errorMessage(error)}`);
    }
    if (verdict.allowed) continue;
    if (verdict.warning !== undefined) {
      warnSafely(options.warn, `The app's call to "${call.name}" was refused. ${verdict.warning}`);
    }
    return { allowed: false, reason: verdict.reason ?? defaultRefusal(call.name) };
  }
  return { allowed: true };
}

/** Input of {@link assembleHookChain}. */
export interface HookChainInput {
  /** The card's or pane's own hook (`mcpContentResult`, the tool, or the pane). */
  readonly own?: OnAppCall | null | undefined;
  /** For cards, the owning chat host's hook. */
  readonly chat?: OnAppCall | null | undefined;
  /** True when the card was recreated from a saved descriptor. */
  readonly restored: boolean;
  /** Every hook that any chat host of this session registered for the card's source. */
  readonly sessionHooksForSource?: readonly OnAppCall[];
  /** The saved descriptor's `checked` mark (restored cards only). */
  readonly checked?: boolean;
}

/**
 * Builds a card's hook chain: its own hook, then its chat's, then, for a
 * restored card, every hook registered in the session for its source (the browser could name any
 * owner, so the saved owner can't be trusted), each once. A restored card saved as checked whose
 * chain comes out empty gets {@link refuseUncheckedRestoredCard}, so a missing check refuses
 * rather than lets everything through.
 *
 * @param input - the hooks that apply and the card's restore state.
 * @returns the chain, without duplicates.
 */
export function assembleHookChain(input: HookChainInput): readonly OnAppCall[] {
  const chain = new Set<OnAppCall>();
  if (input.own) chain.add(input.own);
  if (input.chat) chain.add(input.chat);
  if (input.restored) for (const hook of input.sessionHooksForSource ?? []) chain.add(hook);
  if (input.restored && input.checked === true && chain.size === 0) {
    return [refuseUncheckedRestoredCard];
  }
  return [...chain];
}

/**
 * The creation mark: a card is saved with `checked: true` when any hook applied to it when it
 * was created (its own or its chat's), so its restored copy refuses calls in a session that has
 * no check for it.
 *
 * @param chain - the card's chain at creation.
 * @returns true when the chain is not empty.
 */
export function isChecked(chain: readonly OnAppCall[]): boolean {
  return chain.length > 0;
}

function refusedWithWarning(warning: string): HookVerdict {
  return { allowed: false, reason: null, warning };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/** A reader's name for a value's type, for the "must return" warning. */
function describeType(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return Number.isNaN(value) ? "NaN" : "a number";
  if (typeof value === "object") return "an object";
  if (typeof value === "function") return "a function";
  if (typeof value === "bigint") return "a bigint";
  if (typeof value === "symbol") return "a symbol";
  return typeof value;
}

/** A logger that throws must not turn a refusal into a rejection. */
function warnSafely(warn: (message: string) => void, message: string): void {
  try {
    warn(message);
  } catch (error) {
    console.error(`${message} (The warning handler failed too: ${errorMessage(error)})`);
  }
}
