import { defineConfig } from "vitest/config";

// `npm run test:clients` only: real clients, installed on demand, are too heavy for `npm test`.
export default defineConfig({
  test: {
    include: ["bench/clients/**/*.test.ts"],
    testTimeout: 900_000,
    hookTimeout: 900_000,
    fileParallelism: false,
  },
});
