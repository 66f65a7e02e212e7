# The console server with its built web console (docs/DEPLOY.md). Written without a registry to
# pull node:20 from: build it once (`docker build -t iot-console .`) before relying on it.
FROM node:20-bookworm-slim
WORKDIR /app
# Workspace manifests first: the dependency layer is rebuilt only when they change.
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY packages/sim-model/package.json packages/sim-model/
COPY apps/server/package.json apps/server/
COPY apps/simulator/package.json apps/simulator/
COPY apps/web/package.json apps/web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && mkdir -p /data && chown node:node /data
# `npm run build` compiled the server (apps/server/dist, decision 0036): it runs as `npm start` runs it.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
EXPOSE 8080
VOLUME /data
USER node
CMD ["node", "--enable-source-maps", "apps/server/dist/main.js"]
