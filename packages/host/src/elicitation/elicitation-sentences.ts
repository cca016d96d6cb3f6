// What the person (and the log) is told about a server's questions, one sentence each.

/** The notice when a question times out. */
export function unansweredQuestion(server: string): string {
  return `The question from ${server} went unanswered and was cancelled; send your request again to be asked again.`;
}

/** The notice when a server asks with a form this host cannot show. */
export function cannotShowQuestion(server: string): string {
  return `${server} asked a question this host cannot show as a form, so it was declined.`;
}

/** The notice when a server asks the person to open something that is not a web page. */
export function notWebAddress(server: string): string {
  return `${server} asked you to open an address that is not a web page (http or https), so it was declined.`;
}

/** The refusal of an answer whose form values are wrong (the dialog stays). */
export function answerNotSent(problems: readonly string[]): string {
  return `Your answer was not sent: ${problems.join(" ")}`;
}

/** The refusal of an answer to a question that no longer waits. */
export function unknownQuestion(): string {
  return "That question is no longer waiting; it was answered, withdrawn or timed out.";
}

/** The log line when too many questions wait already. */
export function tooManyQuestions(limit: number): string {
  return `declined a question: ${limit} questions already wait for the person in this session`;
}

/** The log line when a question cannot be put to exactly one person. */
export function unattributedQuestion(sessions: number): string {
  return sessions === 0
    ? "declined a question: no call of a person's was in flight on this connection"
    : `declined a question: calls of ${sessions} sessions were in flight on this shared connection, so who was asked is unknown`;
}
