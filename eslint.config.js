// Lint rules for the whole monorepo. Prettier owns formatting; ESLint owns correctness.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "**/.turbo/**",
      "**/data/**",
      "**/test-results/**",
      "**/playwright-report/**",
      "e2e/artifacts/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.node },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": ["error", { allow: ["warn", "error"] }],
      eqeqeq: ["error", "smart"],
    },
  },
  {
    files: ["apps/web/**/*.{ts,tsx}", "packages/sandbox/src/proxy/**/*.ts"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // React's rules of hooks and the compiler's checks; a missing dependency is an error, so a
    // deliberate list needs a disable comment that says why (or, better, useEffectEvent).
    files: ["apps/web/**/*.{ts,tsx}"],
    ...reactHooks.configs.flat.recommended,
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    // Command-line entry points and scripts print to the terminal on purpose.
    files: [
      "scripts/**",
      "apps/server/src/cli*.ts",
      "apps/server/src/start.mjs",
      "bench/**",
      "**/*.test.ts",
      "e2e/**",
      "**/fixtures/**",
    ],
    rules: { "no-console": "off" },
  },
  prettier,
);
