import { defineConfig } from "vite";

// Everything is bundled into files: no inline scripts or styles, so the CSP needs no 'unsafe-inline'.
export default defineConfig({
  clearScreen: false,
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "safari15",
    assetsInlineLimit: 0,
    sourcemap: false,
  },
});
