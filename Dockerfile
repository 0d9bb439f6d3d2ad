# One image for every service; SERVICE picks which one runs (dist/apps/<SERVICE>/src/main.js). Compiled once at
# build time: the container starts plain JavaScript, as a non-root user, with only the production dependencies
# exactly as package-lock.json has them (`npm ci`). Two targets: `production` (the default: no ATS sandboxes,
# no swc, no dev dependencies; what a deployment runs) and `demo` (the same plus the sandboxes, for
# docker compose). dist/sbom.cdx.json in both lists the production dependencies (CycloneDX).

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json tsconfig.build.json ./
COPY tools ./tools
COPY libs ./libs
COPY apps ./apps
RUN node tools/build.mjs dist
# The production output: the vendors' stand-ins left out.
# Every sandbox lives in its vendor's folder as libs/ats/<vendor>/sandbox (their shared part in libs/ats/core/sandbox),
# packaged as @connector/*sandbox*; the runner and the demo connectors made on them are tools/sandboxes.js and
# tools/demo-connectors.js.
RUN cp -r dist dist-production && rm -rf dist-production/libs/ats/*/sandbox \
  dist-production/node_modules/@connector/*sandbox* \
  dist-production/tools/sandboxes.js* dist-production/tools/demo-connectors.js*

FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# swc is in package.json's dependencies for `npm start` and the tools run under it; compiled code never loads it.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force \
  && rm -rf node_modules/@swc node_modules/@swc-node

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production SERVICE=connector-registry HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
# /keys: where docker compose keeps the generated ENCRYPTION_KEYS (a volume the node user owns).
RUN mkdir -p /keys && chown node:node /keys
EXPOSE 3000

FROM runtime AS demo
COPY --from=build /app/dist ./dist
USER node
CMD ["sh", "-c", "exec node dist/apps/${SERVICE}/src/main.js"]

FROM runtime AS production
COPY --from=build /app/dist-production ./dist
USER node
CMD ["sh", "-c", "exec node dist/apps/${SERVICE}/src/main.js"]
