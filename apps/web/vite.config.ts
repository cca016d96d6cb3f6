// The web app's build. The server serves `dist/` behind its sign-in; in development, the vite
// dev server forwards the socket to a server started on port 8787.
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  base: "/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // The host bundle (React + socket.io + AppBridge) is a little over 500 kB; that is expected.
    chunkSizeWarningLimit: 1_024,
  },
  server: {
    host: "127.0.0.1",
    proxy: {
      "/socket.io": { target: "http://127.0.0.1:8787", ws: true },
    },
  },
});
