/** A page of a cursor-paginated list, as services return it. `totalCount` runs only when selected. */
export interface Page<T> {
  nodes: T[];
  /** Signed cursor that resumes after `node`. */
  cursorOf: (node: T) => string;
  hasNextPage: boolean;
  /** Rows precede this page: it was read from a cursor (or a non-zero offset). */
  hasPreviousPage: boolean;
  totalCount: () => Promise<number>;
}

/**
 * A statement the caller will ask for, started now beside another: the same promise later. Its failure is handled
 * here too, so a page that fails first leaves no unhandled rejection behind; whoever asks still sees the failure.
 */
export function startedNow<T>(run: () => Promise<T>): () => Promise<T> {
  const running = run();
  running.catch(() => undefined);
  return () => running;
}
