// Lint: typescript-eslint's recommended rules, import cycles, and the folder layers below.
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The folders of src/, lowest layer first. A folder imports only from layers below its own: never
 * from its own layer or one above, so that no two folders can import each other, even through others.
 */
const LAYERS = [
  ['common'],
  ['config', 'metrics'],
  ['database', 'logging'],
  ['identity', 'outbox', 'permissions', 'memberships'],
  ['auth', 'mail'],
  ['audit', 'idempotency'],
  ['sessions'],
  ['invitations', 'webhooks', 'rate-limit', 'admin-users', 'health'],
  ['admin-tenants', 'joining', 'org-invitations', 'org-members', 'org-people', 'bulk-invitations', 'api-docs'],
  // SCIM's roles from groups write custom roles through the roles module.
  ['roles'],
  ['invitation-page', 'test-mode', 'scim', 'domains'],
  ['sso', 'me'],
  // The IT admin's setup through the org routes' services: domains, single sign-on, SCIM.
  ['setup-links'],
  // The operator CLI runs what every feature offers an operator (single sign-on's key rotation too).
  ['cli'],
];

const folderLayers = LAYERS.flatMap((layer, index) =>
  layer.map((folder) => ({
    target: `./src/${folder}`,
    from: LAYERS.slice(index)
      .flat()
      .filter((other) => other !== folder)
      .map((other) => `./src/${other}`),
    message: `src/${folder} is in layer ${index + 1} of eslint.config.mjs and may import only from the layers below it.`,
  })),
).filter((zone) => zone.from.length > 0); // the top layer imports from every other

export default tseslint.config(
  {
    ignores: ['dist/', 'coverage/', 'test-output/', 'data/', 'client/', 'test/support/openapi-schema.d.ts'],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.json'] })] },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { zones: folderLayers }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], languageOptions: { globals: globals.node } },
  // The setup page's script: ES modules that the browser loads (src/setup-page/setup-page.assets.ts).
  { files: ['src/**/browser/*.js'], languageOptions: { globals: globals.browser, sourceType: 'module' } },
  { files: ['**/*.js'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // The starter QA suite: plain CommonJS under Jest.
  { files: ['examples/qa-suite/**/*.test.js'], languageOptions: { globals: globals.jest } },
  prettier,
);
