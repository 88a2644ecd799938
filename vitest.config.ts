import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The Windows lane runs under Wine through its own config (npm run test:windows).
    exclude: [...configDefaults.exclude, "test/windows/**"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The engines the CLI tests start (one per setup they make) exit soon after the suite.
    env: { SPLICE_ENGINE_IDLE: "30" },
  },
});
