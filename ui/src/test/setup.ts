// Component tests: the DOM is emptied after each test.
import { cleanup } from "@testing-library/svelte";
import { afterEach } from "vitest";

afterEach(() => cleanup());
