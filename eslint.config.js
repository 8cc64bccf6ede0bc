// ESLint (flat config): typescript-eslint's recommended rules over every TypeScript file of the
// repository, four rules that read the types, and the hooks rules for the uploader's Preact
// components; build output, installed packages and the fixture apps' copies stay out.
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', '.tmp/'] },
  ...tseslint.configs.recommended,
  // `const { key: _omitted, ...rest } = value` is how a key is left out of a copy.
  { rules: { '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }] } },
  // Rules that need the types, each file read with the tsconfig that owns it (tsconfig.json lists
  // them): a promise nobody awaits loses its rejection, an async callback where a void one is
  // expected runs unchecked, and a switch over a union names every member, so a new status or
  // message type is handled wherever one is switched on. The fixture apps are type-checked on
  // their own, against the packed tarball (test/support/consumers.ts).
  {
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['test/consumers/**'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },
  // Preact's hooks (preact/hooks) follow React's rules: called in the same order on every render,
  // and effects that name everything they read. The components, and custom hooks in files of their
  // own name (useUpload.ts): elsewhere a parameter called `use` reads as React's `use` hook.
  {
    files: ['src/widget/**/*.tsx', 'src/widget/**/use*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  // The spec's numbers have names (src/shared/videoStatus.ts); a bare 1 or 7 compared with a
  // status says nothing to the reader and drifts from the table. Tests may use the numbers.
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "BinaryExpression[operator=/^[!=]==?$/]:matches([left.object.name=/video/i][left.property.name='status'], [left.property.name=/^(sourceGetType|SourceFileGetType)$/], [left.name=/^(videoStatus|sourceGetType)$/])[right.type='Literal']",
          message: 'Name the number: VideoStatus or SourceFileGetType (src/shared/videoStatus.ts).',
        },
      ],
    },
  },
);
