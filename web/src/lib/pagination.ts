/** Layout breakpoint under which lists get the narrow pagination (spec §9). */
export const NARROW_WIDTH = 576;

/** The page numbers to show: a window of 3 at 576 px or less, else 5, around the current page. */
export function pageWindow(current: number, totalPages: number, width: number): number[] {
  const size = Math.min(width <= NARROW_WIDTH ? 3 : 5, totalPages);
  let start = Math.max(1, current - Math.floor(size / 2));
  start = Math.min(start, totalPages - size + 1);
  return Array.from({ length: size }, (_, index) => start + index);
}

/** First and last buttons only when the window is wider than 576 px. */
export function showEdgeButtons(width: number): boolean {
  return width > NARROW_WIDTH;
}

export function pageCount(items: number, perPage: number): number {
  return Math.max(1, Math.ceil(items / perPage));
}

export function pageOf<T>(items: readonly T[], page: number, perPage: number): T[] {
  return items.slice((page - 1) * perPage, page * perPage);
}
