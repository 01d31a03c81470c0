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
      for (const m of text.matchAll(/\bt\(\s*"((?:[^"\\]|\\.)*)"/g)) keys.add(m[1].replace(/\\"/g, '"'));
    }
    expect(keys.size).toBeGreaterThan(150);
    expect([...keys].filter((k) => !hasNorwegian(k))).toEqual([]);
  });
});
