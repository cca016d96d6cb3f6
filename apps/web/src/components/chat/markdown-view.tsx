import { type MouseEvent, useMemo } from "react";
import { COPY_CODE_ATTRIBUTE, renderMarkdown } from "../../markdown/render-markdown";

/** Copies a code block's text when its Copy button is clicked (one listener for all blocks). */
function onCopyClick(event: MouseEvent<HTMLDivElement>): void {
  const target = event.target;
  if (!(target instanceof HTMLElement)) return;
  const button = target.closest<HTMLButtonElement>(`button[${COPY_CODE_ATTRIBUTE}]`);
  if (button === null) return;
  const code = button.closest(".code-block")?.querySelector("code")?.textContent ?? "";
  const done = (label: string) => {
    button.textContent = label;
    setTimeout(() => {
      button.textContent = "Copy";
    }, 1_500);
  };
  if (navigator.clipboard === undefined) {
    done("Copy failed");
    return;
  }
  navigator.clipboard.writeText(code).then(
    () => done("Copied"),
    () => done("Copy failed"),
  );
}

/**
 * Markdown rendered and sanitised (see `renderMarkdown`), with working Copy buttons on code blocks.
 */
export function MarkdownView(props: { text: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(props.text), [props.text]);
  return (
    <div
      className={props.className ?? "markdown"}
      onClick={onCopyClick}
      // The HTML went through DOMPurify in renderMarkdown; nothing else reaches this.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
