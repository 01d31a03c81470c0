import { describe, expect, it } from "vitest";
import { MAX_SPACER, rowWindow } from "./row_window";

describe("rowWindow", () => {
  it("places rows at their own height while the list fits", () => {
    const w = rowWindow(1000, 30, 600, 900 * 30);
    expect(w).toEqual({ spacer: 30_000, first: 896, last: 924, offset: 896 * 30 });
  });

  it("starts at the first row", () => {
    expect(rowWindow(2_000_000, 30, 600, 0)).toMatchObject({ first: 0, offset: 0 });
  });

  it("keeps a list of two million rows within the tallest layout and reaches its last row", () => {
    const total = 2_000_000;
    const first = rowWindow(total, 30, 600, 0);
    expect(first.spacer).toBe(MAX_SPACER);
    const end = rowWindow(total, 30, 600, MAX_SPACER - 600);
    expect(end.last).toBe(total);
    // The last row's bottom is the screen's bottom.
    const lastBottom = end.offset + (total - end.first) * 30;
    expect(lastBottom).toBeCloseTo(MAX_SPACER, 6);
  });

  it("draws the row halfway when scrolled halfway", () => {
    const total = 2_000_000;
    const w = rowWindow(total, 30, 600, (MAX_SPACER - 600) / 2);
    expect(w.first).toBeGreaterThan(total / 2 - 20);
    expect(w.first).toBeLessThan(total / 2);
    // The rows drawn cover the screen.
    const top = (MAX_SPACER - 600) / 2;
    expect(w.offset).toBeLessThanOrEqual(top);
    expect(w.offset + (w.last - w.first) * 30).toBeGreaterThanOrEqual(top + 600);
  });

  it("draws nothing for an empty list", () => {
    expect(rowWindow(0, 30, 600, 0)).toMatchObject({ first: 0, last: 0, spacer: 30 });
  });
});
