/**
 * The listeners of a source's two events, tool-list changes and the end of the connection, kept
 * the same way by every `Source` built on a client or a session.
 */
export class SourceListeners {
  readonly #toolsListeners = new Set<() => void>();
  readonly #closeListeners = new Set<() => void>();

  /** Registers a listener for a changed tool list; returns its remover. */
  onToolsChanged(listener: () => void): () => void {
    this.#toolsListeners.add(listener);
    return () => this.#toolsListeners.delete(listener);
  }

  /** Registers a listener for the end of the connection; returns its remover. */
  onClose(listener: () => void): () => void {
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  /** Tells every tool-list listener the list changed. */
  toolsChanged(): void {
    for (const listener of [...this.#toolsListeners]) listener();
  }

  /** Forgets every listener, then tells the close listeners the connection ended. */
  closed(): void {
    const listeners = [...this.#closeListeners];
    this.#closeListeners.clear();
    this.#toolsListeners.clear();
    for (const listener of listeners) listener();
  }
}
