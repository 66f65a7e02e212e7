import fs from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Only repositories talk SQL: services and routes go through *.repo.ts. */
const NO_SQL = { group: ['drizzle-orm', 'drizzle-orm/*'], message: 'SQL lives in *.repo.ts' };
/** lib/query/ holds the repositories' shared query pieces (paging, keyset, visibility): only repositories use them. */
const NO_QUERY = { regex: '(^|/)lib/query/', message: 'lib/query/ is for *.repo.ts: call the module’s service' };
/** A repository is its module's own: others call the module's service. */
const NO_REPO = {
  regex: '\\.repo(\\.js)?$',
  message: 'Call the module’s service: only the module’s own service reads its repository',
};
/**
 * Only the files of a repository's own folder import it: services of modules/, src/telemetry and
 * src/demo never read another module's or telemetry's *.repo.ts (they call its service).
 */
const FOREIGN_REPO = {
  regex: '^(?!\\./).*\\.repo(\\.js)?$',
  message: 'A repository belongs to its folder: call the owner’s service (modules/<m>/*.service.ts, telemetry/*.service.ts)',
};
/** Outside modules/ (src/telemetry, src/demo): a module is reached through its *.service.ts (or a *.types.ts) only. */
const MODULE_VIA_SERVICE = {
  regex: '(^|/)modules/[^/]+/(?![^/]+\\.(?:service|types)(?:\\.js)?$)',
  message: 'A module is reached through its *.service.ts (or a *.types.ts) only',
};
/** From modules/<a>/, `../<b>/<file>` (or `../../modules/<b>/<file>`) may only name b's service or types. */
const OTHER_MODULE = {
  regex: '^(?:\\.\\./(?!\\.\\.?/)[^/]+|(?:\\.\\./)+modules/[^/]+)/(?![^/]+\\.(?:service|types)(?:\\.js)?$)',
  message: 'Another module is reached through its *.service.ts (or a *.types.ts) only',
};
const NO_PLUGINS = {
  regex: '(^|/)plugins/',
  message: 'Services do not import the HTTP layer: routes pass what they need (e.g. the Actor of modules/audit)',
};
/** plugins/ (the HTTP layer) and lib/ are below the modules: what they need of one is passed in (app.ts). */
const NO_MODULES = {
  regex: '(^|/)modules/',
  message: 'plugins/ and lib/ never import modules/: shared types live in lib/ (lib/caller.ts), services are passed in by app.ts',
};
/** db/ is the bottom layer: client, schema, migrations, seed. */
const NO_UPPER_LAYERS = {
  regex: '(^|/)(lib|modules|plugins|telemetry|demo)/',
  message: 'db/ is the bottom layer: it imports no lib/, modules/, plugins/, telemetry/ or demo/',
};
const NO_DB = {
  regex: '(^|/)db/',
  message: 'Routes call services: the database, its schema and seeds are for services and repositories',
};

/** Web: `components/` and `lib/` are shared by every screen. */
const NO_SCREENS = {
  regex: '(^|/)(app|features)(/|$)',
  message: 'components/ and lib/ are shared by every screen: they never import app/ or features/',
};
/** Web: a feature never imports app/ (the app composes features, not the other way round). */
const NO_APP = {
  regex: '(^|/)app(/|$)',
  message: 'Features never import app/: what features share lives in lib/ or components/',
};
/**
 * Web: a feature never imports another feature. A relative path reaches the features folder with
 * one `../` more than the importing file's depth inside its feature (`../x` from
 * features/a/File.tsx, `../../x` from features/a/details/File.tsx); there only the feature's own
 * folder is allowed. Any path naming `features/` is refused too.
 */
const FEATURES_DIR = new URL('./apps/web/src/features/', import.meta.url);
const FEATURES = fs
  .readdirSync(FEATURES_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
/** Deepest folder level inside a feature that the rule covers (features/a/b/c/d/File.tsx is 3). */
const FEATURE_DEPTH = 3;
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
function otherFeature(feature, depth) {
  return {
    regex: `^(?:\\.\\./){${depth + 1}}(?!(?:\\.\\.?|${escapeRe(feature)})(?:/|$))[^/]+|(^|/)features/`,
    message:
      'A feature never imports another feature: move what both need to lib/ or components/, or let app/ compose them',
  };
}
/** Web: every call names its endpoint declaration (`api()` in lib/api.ts), never a path string. */
const NO_RAW_REQUEST = {
  regex: '(^|/)http$',
  importNames: ['requestEnvelope'],
  message: 'Call the API with api(endpoint, …) from lib/api.ts: the contract declares every path',
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/migrations/**', 'data/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // Tests read JSON envelopes of many shapes.
    files: ['**/*.test.ts', '**/test/**/*.ts', '**/e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // One-way imports. Server: db/ imports no other layer; lib/ and plugins/ never import modules/
  // nor reach into a repository, and hold no SQL (but lib's list helpers, below); a module reaches
  // another only through its *.service.ts (or a *.types.ts); a repository is imported only from
  // its own folder (no service reads another module's or telemetry's *.repo.ts); services,
  // src/telemetry and src/demo never import plugins (the HTTP layer); routes call services, never
  // repositories or the database. Web: components/ and
  // lib/ never import app/ or features/; a feature never imports app/ or another feature (its
  // own files import each other; the app composes features, e.g. app/ProjectDetails.tsx); only
  // lib/api.ts sends requests (by endpoint declaration).
  {
    files: ['apps/server/src/db/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_UPPER_LAYERS] }] },
  },
  {
    files: ['apps/server/src/lib/**/*.ts', 'apps/server/src/plugins/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_REPO, NO_MODULES] }] },
  },
  {
    files: ['apps/server/src/lib/**/*.ts', 'apps/server/src/plugins/**/*.ts'],
    // lib/query/ is the repositories' shared SQL (paging, keyset, visibility, filters).
    ignores: ['apps/server/src/lib/query/**', 'apps/server/src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_SQL, NO_REPO, NO_MODULES, NO_QUERY] }] },
  },
  {
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['apps/server/src/modules/**/*.repo.ts', 'apps/server/src/modules/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_SQL, OTHER_MODULE, NO_PLUGINS, FOREIGN_REPO, NO_QUERY] }] },
  },
  {
    files: ['apps/server/src/modules/**/*.repo.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [OTHER_MODULE, FOREIGN_REPO] }] },
  },
  {
    // Telemetry and the demo fleet follow the services' rules: SQL in their own *.repo.ts, modules
    // through their services (never their routes or repositories), no plugins/. (The demo's two
    // exemptions are commented where they are taken.)
    files: ['apps/server/src/telemetry/**/*.ts', 'apps/server/src/demo/**/*.ts'],
    ignores: ['apps/server/src/**/*.repo.ts', 'apps/server/src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_SQL, MODULE_VIA_SERVICE, NO_PLUGINS, FOREIGN_REPO, NO_QUERY] }] },
  },
  {
    files: ['apps/server/src/telemetry/**/*.repo.ts', 'apps/server/src/demo/**/*.repo.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [MODULE_VIA_SERVICE, FOREIGN_REPO] }] },
  },
  {
    files: ['apps/server/src/modules/**/*.routes.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_SQL, OTHER_MODULE, NO_REPO, NO_DB, NO_QUERY] }] },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_RAW_REQUEST] }] },
  },
  {
    // The browser runs the contract's zod-free modules only (docs/decisions/0012): run-time values
    // from '@iot/contract/plain', schemas and their types as `import type`. `vite build` checks
    // the bundle too (apps/web/build/no-zod.ts). Tests and src/test/ never ship and may parse with schemas.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/**/*.test.{ts,tsx}', 'apps/web/src/test/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'zod', allowTypeImports: true, message: 'The browser never validates with zod: the server does' },
            {
              name: '@iot/contract',
              allowTypeImports: true,
              message: "Run-time values come from '@iot/contract/plain' (no zod in the bundle); schemas' types with `import type`",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/components/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_SCREENS, NO_RAW_REQUEST] }] },
  },
  {
    // The one caller of the raw request function.
    files: ['apps/web/src/lib/api.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_SCREENS] }] },
  },
  // Each block names every pattern for its files: a later block's rule replaces an earlier one's.
  // One block per feature and folder depth, so `../../<other>/…` from a nested folder is caught.
  ...FEATURES.flatMap((feature) =>
    Array.from({ length: FEATURE_DEPTH + 1 }, (_, depth) => ({
      files: [`apps/web/src/features/${feature}/${'*/'.repeat(depth)}*.{ts,tsx}`],
      rules: {
        'no-restricted-imports': ['error', { patterns: [NO_APP, otherFeature(feature, depth), NO_RAW_REQUEST] }],
      },
    })),
  ),
  {
    // Web cache keys come from lib/query-keys.ts (one object per domain), never written in place:
    // a feature refreshing another domain's lists names that domain's keys.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/query-keys.ts', 'apps/web/src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          "Property[key.name='queryKey'] > :matches(ArrayExpression, TSAsExpression[expression.type='ArrayExpression'])",
          'CallExpression[callee.property.name=/^(get|set|ensure|fetch|prefetch)Quer(y|ies)Data$/] > ArrayExpression',
          "VariableDeclarator[id.name=/keys?$/i] > :matches(ArrayExpression, TSAsExpression[expression.type='ArrayExpression'], ObjectExpression)",
        ].map((selector) => ({ selector, message: 'Query keys come from lib/query-keys.ts (e.g. deviceKeys.list(params), deviceKeys.all)' })),
      ],
    },
  },
  {
    // Deeper than FEATURE_DEPTH: refuse to lint rather than leave a hole.
    files: [`apps/web/src/features/*/${'*/'.repeat(FEATURE_DEPTH + 1)}**/*.{ts,tsx}`],
    rules: {
      'no-restricted-syntax': ['error', { selector: 'Program', message: `Feature folders nest at most ${FEATURE_DEPTH} levels (eslint.config.js FEATURE_DEPTH)` }],
    },
  },
);
