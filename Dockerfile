# The console server with its built web console (docs/DEPLOY.md): `docker build -t iot-console .`
# Three stages: `base` holds the workspace manifests; `build` installs every package and compiles
# the web console and the server (decision 0036); the image holds the compiled output and the
# server's run-time packages only (no Vite, Playwright, test or type packages: 1.08 GB as one stage).

FROM node:20-bookworm-slim AS base
WORKDIR /app
# Workspace manifests first: the dependency layers are rebuilt only when they change.
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY packages/sim-model/package.json packages/sim-model/
COPY apps/server/package.json apps/server/
COPY apps/simulator/package.json apps/simulator/
COPY apps/web/package.json apps/web/

FROM base AS build
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM base
# The server's own dependencies, as the lock file pins them; the workspace packages are compiled
# into the server's bundle.
RUN npm ci --omit=dev --workspace apps/server --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/web/dist apps/web/dist
RUN mkdir -p /data && chown node:node /data
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
# 8080: the console and its API; 1883: the embedded MQTT broker (unused with MQTT_URL).
EXPOSE 8080 1883
VOLUME /data
USER node
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--enable-source-maps", "apps/server/dist/main.js"]
