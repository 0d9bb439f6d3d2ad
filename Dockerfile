# One image for every service and sandbox; SERVICE picks which one runs (dist/apps/<SERVICE>/src/main.js).
# Compiled once at build time: the container starts plain JavaScript, as a non-root user.

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json tsconfig.build.json ./
COPY tools ./tools
COPY libs ./libs
COPY apps ./apps
RUN node tools/build.mjs dist

FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:22-bookworm-slim
ENV NODE_ENV=production SERVICE=connector-registry HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# /keys: where docker compose keeps the generated ENCRYPTION_KEYS (a volume the node user owns).
RUN mkdir -p /keys && chown node:node /keys
USER node
EXPOSE 3000
CMD ["sh", "-c", "exec node dist/apps/${SERVICE}/src/main.js"]
