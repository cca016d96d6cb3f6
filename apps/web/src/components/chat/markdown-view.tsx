import { type MouseEvent, useMemo } from "react";
import {
  COPY_CODE_ATTRIBUTE,
  LOCAL_LINK_ATTRIBUTE,
  renderMarkdown,
} from "../../markdown/render-markdown";

/**
 * A link to this computer or the local network opens only after the person says yes: such a
 * page is a service nobody vetted for the open web, and it would get the host's cookies.
 */
function onLocalLinkClick(event: MouseEvent<HTMLDivElement>): boolean {
  const target = event.target;
  if (!(target instanceof Element)) return false;
  const link = target.closest<HTMLAnchorElement>(`a[${LOCAL_LINK_ATTRIBUTE}]`);
  if (link === null) return false;
  event.preventDefault();
  const where = link.getAttribute(LOCAL_LINK_ATTRIBUTE) ?? "a local address";
  const question = `This link goes to ${where}, not to a site on the web. Open it anyway?`;
  if (window.confirm(question)) window.open(link.href, "_blank", "noopener,noreferrer");
  return true;
}

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
      onClick={(event) => {
        if (!onLocalLinkClick(event)) onCopyClick(event);
      }}
      // The HTML went through DOMPurify in renderMarkdown; nothing else reaches this.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
