import { defineConfig } from "vitest/config";

// `npm run test:windows` only: splice's Windows build under Wine, set up on demand
// (scripts/windows/setup.sh), is too heavy for `npm test`.
export default defineConfig({
  test: {
    include: ["test/windows/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 900_000,
    fileParallelism: false,
  },
});
