# syntax=docker/dockerfile:1
# One image for the API replicas and the workers; a second stage serves the built web client with nginx.
FROM node:24-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY backend/package.json backend/
COPY web/package.json web/
COPY projections/package.json projections/
COPY modules modules
RUN npm ci
COPY . .
# The server stage installs Debian's ffmpeg, which the engine prefers: the static binaries npm ships for machines
# without one (150 MB) stay out of the image.
RUN npm run build && npm prune --omit=dev && rm -rf node_modules/@ffmpeg-installer node_modules/@ffprobe-installer

FROM node:24-bookworm-slim AS server
RUN apt-get update && apt-get install -y --no-install-recommends ffmpeg tini && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production DATA_DIR=/data PORT=8080
WORKDIR /app
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "backend/dist/main.js"]

FROM nginx:1.27-alpine AS web
COPY deploy/nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=build /app/web/dist /usr/share/nginx/html
