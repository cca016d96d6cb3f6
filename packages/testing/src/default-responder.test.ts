import { describe, expect, it } from "vitest";
import { defaultResponder } from "./default-responder";
import { completeView, type ViewMessage } from "./request-view";

function view(messages: ViewMessage[], toolNames: string[] = ["get_time"]) {
  return completeView({ api: "chat-completions", model: "m", stream: true, toolNames, messages });
}
const user = (text: string): ViewMessage => ({
  role: "user",
  text,
  toolCalls: [],
  toolResults: [],
});

describe("defaultResponder", () => {
  it("echoes the person's last text", () => {
    expect(defaultResponder(view([user("first"), user("Hello")]))).toEqual({
      text: "You said: Hello",
    });
    expect(defaultResponder(view([]))).toEqual({ text: "Hello from the stand-in model." });
  });

  it("calls the tool `call <tool> <json>` names, with {} when no JSON follows", () => {
    expect(defaultResponder(view([user('Please call get_time {"zone":"UTC"} now')]))).toEqual({
      toolCalls: [{ name: "get_time", arguments: '{"zone":"UTC"}' }],
    });
    expect(defaultResponder(view([user("call get_time")]))).toEqual({
      toolCalls: [{ name: "get_time", arguments: "{}" }],
    });
  });

  it("says so when the tool is not offered or the arguments are not JSON", () => {
    expect(defaultResponder(view([user("call basic.get-time {}")]))).toEqual({
      text: "I cannot call basic.get-time: no tool by that name was offered.",
    });
    expect(defaultResponder(view([user("call get_time {nope}")]))).toEqual({
      text: "The arguments for get_time are not valid JSON: {nope}",
    });
  });

  it("after tool results, names each tool and what it returned (cut at 200 characters)", () => {
    const reply = defaultResponder(
      view([
        user("call get_time {}"),
        {
          role: "assistant",
          text: "",
          toolCalls: [
            { id: "call_1", name: "get_time", arguments: "{}" },
            { id: "call_2", name: "get_date", arguments: "{}" },
          ],
          toolResults: [],
        },
        {
          role: "tool",
          text: "",
          toolCalls: [],
          toolResults: [
            { callId: "call_1", output: "12:00" },
            { callId: "call_2", output: "x".repeat(250) },
          ],
        },
      ]),
    );

    expect(reply).toEqual({
      text: `The tool get_time returned: 12:00\nThe tool get_date returned: ${"x".repeat(200)}…`,
    });
  });
});
