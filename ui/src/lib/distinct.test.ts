import { describe, expect, it } from "vitest";
import { distinct } from "./distinct";

describe("distinct", () => {
  it("keeps the first of each key, in order", () => {
    const rows = [{ id: "a" }, { id: "b" }, { id: "a" }, { id: "c" }, { id: "b" }];
    expect(distinct(rows, (r) => r.id)).toEqual([{ id: "a" }, { id: "b" }, { id: "c" }]);
  });
});
