// npx vitest run --config examples/shared/vitest.config.mjs
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['examples/shared/*.test.mjs'],
    globalSetup: ['examples/shared/global-setup.mjs'],
  },
});
