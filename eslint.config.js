// ESLint (flat config): typescript-eslint's recommended rules over every TypeScript file of the
// repository; build output, installed packages and the fixture apps' copies stay out.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', '.tmp/'] },
  ...tseslint.configs.recommended,
  // `const { key: _omitted, ...rest } = value` is how a key is left out of a copy.
  { rules: { '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }] } },
);
