/**
 * Which rows of a long list to draw, and where. WebKit lays out no element taller than about
 * 33.5 million pixels (2³¹ sixty-fourths), so a list of 1.2 million 30 px rows would end short
 * of its last rows: past `MAX_SPACER` the scroll range stands for the whole list, each pixel
 * scrolled moving more than one pixel through it, and the end of the range is its last screen.
 */
export const MAX_SPACER = 10_000_000;

export interface RowWindow {
  /** The height of the scrolling content, in pixels. */
  spacer: number;
  /** The first row to draw. */
  first: number;
  /** One past the last row to draw. */
  last: number;
  /** Where the first row to draw is placed, in the content's pixels. */
  offset: number;
}

/** Rows drawn beyond the screen on each side, so that a short scroll shows no gap. */
const MARGIN = 4;

export function rowWindow(
  total: number,
  rowHeight: number,
  height: number,
  scrollTop: number,
  maxSpacer = MAX_SPACER,
): RowWindow {
  const full = Math.max(total, 1) * rowHeight;
  const spacer = Math.min(full, maxSpacer);
  const range = spacer - height;
  // Where the list's own pixels are scrolled to: the same as `scrollTop` unless scaled.
  const through = spacer < full && range > 0 ? (Math.min(scrollTop, range) * (full - height)) / range : scrollTop;
  const first = Math.max(0, Math.min(total, Math.floor(through / rowHeight) - MARGIN));
  const last = Math.min(total, first + Math.ceil(height / rowHeight) + 2 * MARGIN);
  return { spacer, first, last, offset: scrollTop + first * rowHeight - through };
}
