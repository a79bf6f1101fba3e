# The trading platform's image: built once, run read-only.
#   docker build -t tradeplatform .                      (BASE defaults to the official Node 24 image)
#   docker build --build-arg BASE=my-registry/node:24 .  (any Debian/Ubuntu-like image with node and npm 24)
# Runs the built server (no TypeScript loader, no build at start) as a non-root user; only /data
# (DATA_DIR: the embedded database, uploads) is written. Migrations are their own step:
#   docker run --rm -e DATABASE_URL=... tradeplatform apps/server/dist/scripts/migrate.js
# and the servers start with MIGRATE_ON_START=false (they refuse a schema older than their code).
ARG BASE=node:24-bookworm-slim

# Build stage: every dependency, then the web app and the server bundle.
FROM ${BASE} AS build
# Behind a TLS-inspecting proxy: a CA bundle (mounted into the build) for npm; not kept in the image.
ARG NODE_EXTRA_CA_CERTS
WORKDIR /src
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY bench/package.json bench/
# The benchmarks' load tools are not part of the product: only the workspaces the build needs.
RUN npm ci --no-audit --no-fund --include-workspace-root -w packages/contract -w apps/server -w apps/web
COPY . .
RUN npm run build \
 && mkdir -p /out/apps /out/packages/contract /out/bench \
 && cp package.json package-lock.json /out/ \
 && cp -r apps/server /out/apps/server && rm -rf /out/apps/server/node_modules \
 && mkdir -p /out/apps/web && cp -r apps/web/package.json apps/web/dist /out/apps/web/ \
 && cp -r packages/contract/package.json packages/contract/src /out/packages/contract/ \
 && cp bench/package.json /out/bench/ \
 && find /out/apps /out/packages -name '*.test.ts' -delete \
 && cd /out && npm ci --omit=dev --no-audit --no-fund --include-workspace-root -w apps/server

# Runtime stage: Node 24, the production dependencies and the build, nothing else.
FROM ${BASE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    MIGRATE_ON_START=false
WORKDIR /app
RUN (getent group app || groupadd --system --gid 10001 app) \
 && (getent passwd app || useradd --system --uid 10001 --gid app --home-dir /data --shell /usr/sbin/nologin app) \
 && mkdir -p /data && chown app:app /data
COPY --from=build --chown=root:root /out /app
USER app
VOLUME ["/data"]
EXPOSE 8080
# The server stops on SIGTERM: sockets get a close frame, requests drain, the database closes.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node"]
CMD ["apps/server/dist/main.js"]
