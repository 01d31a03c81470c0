// Component tests: the DOM is emptied after each test. jsdom lays nothing out, so it has no
// ResizeObserver (what Svelte's size bindings use): one that never reports stands in.
import { cleanup } from "@testing-library/svelte";
import { afterEach } from "vitest";

class StillObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver ??= StillObserver;

afterEach(() => cleanup());
