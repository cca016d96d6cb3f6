import type { SourceProgress } from "./source";

/**
 * A progress notification as a {@link SourceProgress}, without the fields the server left out.
 *
 * @returns a fresh object.
 */
export function toSourceProgress(progress: {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}): SourceProgress {
  const result: SourceProgress = { progress: progress.progress };
  if (progress.total !== undefined) result.total = progress.total;
  if (progress.message !== undefined) result.message = progress.message;
  return result;
}
