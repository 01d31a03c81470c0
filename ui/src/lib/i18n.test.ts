import { describe, expect, it } from "vitest";

// Every key the window passes to `t`, `tf` and `tn` is checked by the compiler (`UiKey`): a
// misspelt key, or one without its Norwegian, does not type-check.
describe("sentences with figures", () => {
  it("are one key each, with the plural form the language picks", async () => {
    const { setLanguage, tn, tf } = await import("./i18n.svelte");
    const rows = { one: "{n} row", other: "{n} rows" } as const;
    setLanguage("en");
    expect([tn(1, rows), tn(0, rows), tn(2, rows)]).toEqual(["1 row", "0 rows", "2 rows"]);
    expect(tf("Saved to {path}", { path: "/tmp/a.csv" })).toBe("Saved to /tmp/a.csv");
    setLanguage("nb");
    expect([tn(1, rows), tn(2, rows)]).toEqual(["1 rad", "2 rader"]);
    expect(tn(3, { one: "Saved {n} line to {path}", other: "Saved {n} lines to {path}" }, { path: "x" })).toBe(
      "Lagret 3 linjer i x",
    );
    setLanguage("en");
  });
});

describe("weekday names", () => {
  it("come from the platform's calendar in the language, Monday first", async () => {
    const { setLanguage, weekdayName } = await import("./i18n.svelte");
    setLanguage("nb");
    expect([0, 1, 6].map(weekdayName)).toEqual(["mandag", "tirsdag", "søndag"]);
    setLanguage("en");
    expect([0, 4, 6].map(weekdayName)).toEqual(["Monday", "Friday", "Sunday"]);
  });
});
