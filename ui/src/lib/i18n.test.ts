import { describe, expect, it } from "vitest";
import { hasNorwegian } from "./i18n.svelte";

// Every file of the window, as text: the keys it translates are read from its source.
const sources = import.meta.glob(["../**/*.svelte", "../**/*.ts", "!../**/*.test.ts", "!../bindings.ts"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

describe("the window's words", () => {
  it("have Norwegian for every label the window shows", () => {
    const keys = new Set<string>();
    for (const text of Object.values(sources)) {
      // `t("…")`, `tf("…", …)`, and the plural forms given to `tn` (`one: "…"`, `other: "…"`).
      for (const m of text.matchAll(/(?:\btf?\(|\bone:|\bother:)\s*"((?:[^"\\]|\\.)*)"/g))
        keys.add(m[1].replace(/\\"/g, '"'));
    }
    expect(keys.size).toBeGreaterThan(150);
    expect([...keys].filter((k) => !hasNorwegian(k))).toEqual([]);
  });
});

describe("sentences with figures", () => {
  it("are one key each, with the plural form the language picks", async () => {
    const { setLanguage, tn, tf } = await import("./i18n.svelte");
    const rows = { one: "{n} row", other: "{n} rows" };
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
