// Component tests: the DOM is emptied after each test. jsdom lays nothing out, so it has no
// ResizeObserver (what Svelte's size bindings use): one that never reports stands in; nor does
// it scroll the window.
import { cleanup } from "@testing-library/svelte";
import { afterEach } from "vitest";

class StillObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver ??= StillObserver;
window.scrollTo = () => {};

afterEach(() => cleanup());
