# The service as an image. Both stages keep to scripts/production-install.sh, which CI runs on every
# `npm test` (test/production.test.ts), so this recipe is exercised without a Docker daemon.
#
#   docker build -t open-video-upload .
#   docker compose up          (compose.yaml: mounted APPS_FILE, a volume for DATA_DIR)

ARG NODE_VERSION=20.20

# Build stage: dev dependencies, `npm run build`, then the production tree in /app with
# node_modules pruned to --omit=dev. Compilers in this image build better-sqlite3 from source when
# no prebuilt binary fits.
FROM node:${NODE_VERSION}-bookworm AS build
WORKDIR /src
COPY package.json package-lock.json ./
# As in .ci/run: a lockfile written where the registry serves only some platforms' optional
# binaries can be refused by `npm ci`; the same locked versions then come from `npm install`.
RUN npm ci --no-audit --no-fund || npm install --no-audit --no-fund
COPY . .
RUN scripts/production-install.sh /app

# Runtime stage: node, Debian's ffmpeg, the production tree, a non-root user.
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg \
  && rm -rf /var/lib/apt/lists/*
COPY --from=build /app /app
WORKDIR /app
RUN mkdir -p /data && chown node:node /data
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
VOLUME /data
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=10s --start-period=15s --retries=3 CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/readyz`).then((res) => process.exit(res.ok ? 0 : 1), () => process.exit(1))"]
# node itself, not npm: the container's stop signal then reaches the service directly (what
# `npm start` runs, minus npm). The service stops within 8 s, inside Docker's 10 s default.
CMD ["node", "scripts/start.mjs"]
