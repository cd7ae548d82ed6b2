# The API, the worker and the codec endpoint share this image; docker-compose.yml picks the entrypoint per service.
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary fits.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src src
COPY workflows workflows
COPY activities activities
COPY console console
COPY scripts/build-console.js scripts/build-console.js
# tsc, then the one prebuilt workflow bundle (dist/workflow-bundle.js) workers load, then the
# console's bundle (dist/console), which the API serves at /console.
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY bin bin
# DATA_DIR for the SQLite key store when DATABASE_URL is not set; owned by the unprivileged user.
RUN mkdir -p /data && chown node:node /data
USER node
# 3000: API (also /healthz, /readyz, /metrics); 9464: a worker's metrics; 8234: the codec endpoint.
EXPOSE 3000 9464 8234
# SIGTERM drains: the API finishes requests in flight, a worker its activities.
STOPSIGNAL SIGTERM
# The API's heap settings: src/api/api-node-flags.ts says why.
CMD ["node", "--max-semi-space-size=2", "--heap-growing-percent=50", "dist/src/api/main.js"]
