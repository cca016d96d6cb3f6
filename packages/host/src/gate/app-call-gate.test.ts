import { describe, expect, it, vi } from "vitest";
import {
  appCallVerdict,
  assembleHookChain,
  isChecked,
  refuseUncheckedRestoredCard,
  runAppCallChain,
  UNCHECKED_RESTORED_CARD_REFUSAL,
  type AppCall,
  type OnAppCall,
} from "./app-call-gate";

function appCall(overrides: Partial<AppCall> = {}): AppCall {
  return {
    name: "greet",
    arguments: { name: "Bo" },
    tool: { name: "greet", inputSchema: { type: "object" } },
    instanceId: "host-1",
    kind: "card",
    source: "greeter",
    chat: "chat-1",
    title: "Greeter",
    session: { id: "session-1", user: null },
    ask: async () => true,
    ...overrides,
  };
}

async function judge(hook: OnAppCall, call: AppCall = appCall()) {
  const warnings: string[] = [];
  const verdict = await runAppCallChain([hook], call, {
    warn: (message) => warnings.push(message),
  });
  return { verdict, warnings };
}

const refusedPrefix = 'The app\'s call to "greet" was refused. ';
const defaultRefusal = 'The host refused the call to "greet".';

describe("the verdict table", () => {
  it("allows on true", async () => {
    expect(await judge(() => true)).toEqual({ verdict: { allowed: true }, warnings: [] });
  });

  it("refuses with the default message on false, without a warning", async () => {
    expect(await judge(() => false)).toEqual({
      verdict: { allowed: false, reason: defaultRefusal },
      warnings: [],
    });
  });

  it("refuses with a string as the reason", async () => {
    expect(await judge(() => "Not Bo.")).toEqual({
      verdict: { allowed: false, reason: "Not Bo." },
      warnings: [],
    });
  });

  it("refuses with the default message on an empty string", async () => {
    expect(await judge(() => "")).toEqual({
      verdict: { allowed: false, reason: defaultRefusal },
      warnings: [],
    });
  });

  it("awaits a promise and applies the same rules", async () => {
    expect((await judge(async () => true)).verdict).toEqual({ allowed: true });
    expect((await judge(async () => "Later no.")).verdict).toEqual({
      allowed: false,
      reason: "Later no.",
    });
    expect((await judge(async () => false)).verdict).toEqual({
      allowed: false,
      reason: defaultRefusal,
    });
    expect((await judge(() => Promise.resolve(Promise.resolve(true)))).verdict).toEqual({
      allowed: true,
    });
  });

  it("refuses with a warning when the promise is rejected", async () => {
    expect(await judge(() => Promise.reject(new Error("store down")))).toEqual({
      verdict: { allowed: false, reason: defaultRefusal },
      warnings: [`${refusedPrefix}onAppCall returned a promise that was rejected: store down`],
    });
  });

  it("refuses with a warning when the hook throws", async () => {
    const result = await judge(() => {
      throw new Error("bad hook");
    });
    expect(result).toEqual({
      verdict: { allowed: false, reason: defaultRefusal },
      warnings: [`${refusedPrefix}onAppCall failed: bad hook`],
    });
  });

  it("refuses with a warning naming the type of anything else", async () => {
    const cases: [unknown, string][] = [
      [undefined, "undefined"],
      [null, "null"],
      [1, "a number"],
      [Number.NaN, "NaN"],
      [[true], "an array"],
      [{ allowed: true }, "an object"],
      [() => true, "a function"],
    ];
    for (const [value, type] of cases) {
      expect(await judge(() => value)).toEqual({
        verdict: { allowed: false, reason: defaultRefusal },
        warnings: [`${refusedPrefix}onAppCall must return true, false, or a string, not ${type}.`],
      });
    }
    expect((await judge(async () => 0)).warnings).toEqual([
      `${refusedPrefix}onAppCall must return true, false, or a string, not a number.`,
    ]);
  });

  it("appCallVerdict gives the raw verdict without the call's name", async () => {
    expect(await appCallVerdict(true)).toEqual({ allowed: true });
    expect(await appCallVerdict("")).toEqual({ allowed: false, reason: null });
    expect(await appCallVerdict(Promise.reject("nope"))).toEqual({
      allowed: false,
      reason: null,
      warning: "onAppCall returned a promise that was rejected: nope",
    });
  });
});

describe("runAppCallChain", () => {
  it("allows when there are no hooks", async () => {
    expect(await runAppCallChain([], appCall(), { warn: () => {} })).toEqual({ allowed: true });
  });

  it("runs hooks in order and stops at the first refusal", async () => {
    const seen: string[] = [];
    const hooks: OnAppCall[] = [
      () => (seen.push("first"), true),
      () => (seen.push("second"), "Second says no."),
      () => (seen.push("third"), "Third says no."),
    ];
    const verdict = await runAppCallChain(hooks, appCall(), { warn: () => {} });
    expect(verdict).toEqual({ allowed: false, reason: "Second says no." });
    expect(seen).toEqual(["first", "second"]);
  });

  it("runs a hook given twice only once", async () => {
    let runs = 0;
    const hook: OnAppCall = () => (runs++, true);
    await runAppCallChain([hook, hook, hook], appCall(), { warn: () => {} });
    expect(runs).toBe(1);
  });

  it("passes the call descriptor to each hook", async () => {
    const seen: AppCall[] = [];
    const call = appCall({ arguments: { name: "Cy" } });
    await runAppCallChain([(received) => (seen.push(received), true)], call, { warn: () => {} });
    expect(seen).toEqual([call]);
  });

  it("never rejects, even when the warning handler throws", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const verdict = await runAppCallChain(
      [
        () => {
          throw "a string, not an Error";
        },
      ],
      appCall(),
      {
        warn: () => {
          throw new Error("logger broken");
        },
      },
    );
    expect(verdict).toEqual({ allowed: false, reason: defaultRefusal });
    expect(consoleError).toHaveBeenCalledWith(
      `${refusedPrefix}onAppCall failed: a string, not an Error (The warning handler failed too: logger broken)`,
    );
    consoleError.mockRestore();
  });

  it("refuses with the default message when a hook isn't a function", async () => {
    const warnings: string[] = [];
    const verdict = await runAppCallChain(["yes" as unknown as OnAppCall], appCall(), {
      warn: (message) => warnings.push(message),
    });
    expect(verdict).toEqual({ allowed: false, reason: defaultRefusal });
    expect(warnings[0]).toMatch(/^The app's call to "greet" was refused\. onAppCall failed: /);
  });

  it("waits for a hook that asks the person", async () => {
    let answer: (value: boolean | string) => void = () => {};
    const call = appCall({ ask: () => new Promise((resolve) => (answer = resolve)) });
    const pending = runAppCallChain([(received) => received.ask("May it?")], call, {
      warn: () => {},
    });
    answer("The person said no.");
    expect(await pending).toEqual({ allowed: false, reason: "The person said no." });
  });
});

describe("assembleHookChain", () => {
  const own: OnAppCall = () => true;
  const chat: OnAppCall = () => true;
  const other: OnAppCall = () => true;

  it("puts the card's own hook before its chat's", () => {
    expect(assembleHookChain({ own, chat, restored: false })).toEqual([own, chat]);
    expect(assembleHookChain({ own: null, chat, restored: false })).toEqual([chat]);
  });

  it("ignores the session's hooks for a card that was not restored", () => {
    expect(assembleHookChain({ chat, restored: false, sessionHooksForSource: [other] })).toEqual([
      chat,
    ]);
  });

  it("adds every hook of the session for a restored card's source, each once", () => {
    expect(
      assembleHookChain({
        own,
        chat,
        restored: true,
        sessionHooksForSource: [chat, other, own, other],
      }),
    ).toEqual([own, chat, other]);
  });

  it("refuses every call of a restored checked card when the session has no check", async () => {
    const chain = assembleHookChain({ restored: true, checked: true, sessionHooksForSource: [] });
    expect(chain).toEqual([refuseUncheckedRestoredCard]);
    const verdict = await runAppCallChain(chain, appCall(), { warn: () => {} });
    expect(verdict).toEqual({ allowed: false, reason: UNCHECKED_RESTORED_CARD_REFUSAL });
    expect(UNCHECKED_RESTORED_CARD_REFUSAL).toBe(
      "This app's calls were checked when it was opened, and this session has no check for them. Pass `onAppCall` to the chat host or tool that shows it.",
    );
  });

  it("leaves a restored unchecked card, and a restored checked card with a check, as they are", () => {
    expect(assembleHookChain({ restored: true, checked: false })).toEqual([]);
    expect(
      assembleHookChain({ restored: true, checked: true, sessionHooksForSource: [other] }),
    ).toEqual([other]);
    expect(assembleHookChain({ restored: false, checked: true })).toEqual([]);
  });

  it("routes two chats' cards through their own chat's hook", async () => {
    const checked: string[] = [];
    const first: OnAppCall = (call) => (
      checked.push(`first ${call.instanceId} ${call.chat}`),
      true
    );
    const second: OnAppCall = (call) => (
      checked.push(`second ${call.instanceId} ${call.chat}`),
      "Not from this chat."
    );
    const cardA = appCall({ instanceId: "a", chat: "chat-1" });
    const cardB = appCall({ instanceId: "b", chat: "chat-2" });
    const verdictA = await runAppCallChain(
      assembleHookChain({ chat: first, restored: false }),
      cardA,
      { warn: () => {} },
    );
    const verdictB = await runAppCallChain(
      assembleHookChain({ chat: second, restored: false }),
      cardB,
      { warn: () => {} },
    );
    expect(verdictA).toEqual({ allowed: true });
    expect(verdictB).toEqual({ allowed: false, reason: "Not from this chat." });
    expect(checked).toEqual(["first a chat-1", "second b chat-2"]);
  });

  it("checks a restored card owned by the chat only once through that chat's hook", async () => {
    const checked: string[] = [];
    const host: OnAppCall = (call) => (checked.push(`${call.instanceId} ${call.chat}`), true);
    const chain = assembleHookChain({
      chat: host,
      restored: true,
      checked: true,
      sessionHooksForSource: [host],
    });
    await runAppCallChain(chain, appCall({ instanceId: "d" }), { warn: () => {} });
    expect(checked).toEqual(["d chat-1"]);
  });
});

describe("isChecked", () => {
  it("marks a card checked when any hook applied at creation", () => {
    expect(isChecked(assembleHookChain({ own: () => true, restored: false }))).toBe(true);
    expect(isChecked(assembleHookChain({ chat: () => true, restored: false }))).toBe(true);
    expect(isChecked(assembleHookChain({ restored: false }))).toBe(false);
  });
});
