import { vitePreprocess } from "@sveltejs/vite-plugin-svelte";

// TypeScript in components; their CSS goes to files (vite's default), so the CSP needs no inline styles.
export default {
  preprocess: vitePreprocess(),
  compilerOptions: { runes: true },
};
