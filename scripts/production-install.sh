#!/bin/sh
# The production tree, made from this checkout: the build, package.json, the lockfile, the start
# script and node_modules without dev dependencies (`npm prune --omit=dev`). The Dockerfile's build
# stage runs exactly this, and test/production.test.ts runs it on every `npm test`, so the image's
# recipe is exercised without a Docker daemon.
#
#   npm ci && scripts/production-install.sh /app     then: cd /app && npm start
#
# node_modules is copied and pruned rather than installed again: no network, and better-sqlite3's
# native module (compiled from source when no prebuilt binary fits) is reused as built.
set -eu
target=${1:?usage: scripts/production-install.sh TARGET_DIR (a new or empty directory)}
cd "$(dirname "$0")/.."
if [ ! -d node_modules/vite ]; then
  echo "production-install: the build needs the dev dependencies: run \`npm ci\` first" >&2
  exit 1
fi
if [ -e "$target" ] && [ -n "$(ls -A "$target")" ]; then
  echo "production-install: $target is not empty" >&2
  exit 1
fi
node scripts/start.mjs --build-only
mkdir -p "$target/scripts" "$target/node_modules"
cp -a package.json package-lock.json README.md dist "$target/"
cp -a scripts/start.mjs "$target/scripts/"
# node_modules/. copies the contents even when node_modules is a symbolic link.
cp -a node_modules/. "$target/node_modules/"
cd "$target"
npm prune --omit=dev --offline --no-audit --no-fund --loglevel=error
echo "production-install: $target is ready; start it with \`npm start\` there"
