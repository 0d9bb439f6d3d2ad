# One image for every service and sandbox; SERVICE picks which one runs (apps/<SERVICE>/src/main.ts).
FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund --omit=dev
COPY tsconfig.base.json tsconfig.json .swcrc ./
COPY apps ./apps
COPY libs ./libs
ENV SERVICE=connector-registry HOST=0.0.0.0 PORT=3000
USER node
CMD ["sh", "-c", "exec node -r @swc-node/register apps/${SERVICE}/src/main.ts"]
