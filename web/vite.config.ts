import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In development the Vite server proxies the API and Socket.IO to the backend on :8080.
export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:8080',
      '/socket.io': { target: 'http://localhost:8080', ws: true },
      '/oidc': 'http://localhost:8080',
    },
  },
  build: { outDir: 'dist', sourcemap: true, target: 'es2022' },
});
