# syntax=docker/dockerfile:1
# Tidewatch: multi-stage image. The build stage installs with the lockfile (from prebuilt native binaries;
# better-sqlite3 is compiled only where none fits) and bundles with esbuild; the runtime stage holds only
# dist/ (bundles, native modules, migrations) on the same Node and libc, run as the unprivileged `node` user.

# A supported Node.js LTS line (README "Node.js versions"): 24, the line CI runs the sqld pass on; 22
# also works (NODE_VERSION=22).
ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /src
# better-sqlite3, the Argon2 binding and libSQL ship prebuilt binaries for linux amd64 and arm64: there the
# install compiles nothing and needs no toolchain. Elsewhere better-sqlite3 is compiled by node-gyp, which
# needs python3, make and g++.
RUN case "$(dpkg --print-architecture)" in \
      amd64|arm64) ;; \
      *) apt-get update \
         && apt-get install -y --no-install-recommends python3 make g++ \
         && rm -rf /var/lib/apt/lists/* ;; \
    esac
COPY package.json package-lock.json .npmrc ./
COPY scripts/compile-native-if-needed.js scripts/
# --ignore-scripts: no dependency's install script runs, whatever this image's npm (npm 10, Node 22's,
# ignores package.json "allowScripts" and would run node-gyp for better-sqlite3 even where a prebuilt
# fits); then our postinstall compiles better-sqlite3 only where no prebuilt binary fits.
RUN npm ci --no-audit --no-fund --ignore-scripts && npm run postinstall
COPY . .
RUN npm run build

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=file:/data/tidewatch.db \
    SEED_DEMO=false
WORKDIR /app
# Owned by root and read-only to the service; only /data is writable.
COPY --from=build /src/dist/ /app/
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1: main.js handles SIGTERM itself (drains requests, closes the database).
# Heap flags: server/node-flags.ts.
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=50", "--enable-source-maps", "main.js"]
