# tti's container image: Debian's Chromium, the built project, `tti-run` as the entrypoint. One image
# for every role: the supervisor (`train --listen`), env and inference workers (`worker --join`).
# Build: docker build -t tti .   (the optional native tfjs packages are left out: their install
# downloads libtensorflow; tti falls back to the wasm backend, see docs/model.md)
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --omit=optional
COPY . .
RUN npm run build && npm prune --omit=dev --omit=optional

FROM node:20-bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends chromium fonts-liberation ca-certificates \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/bin ./bin
COPY --from=build /app/configs ./configs
COPY --from=build /app/tasks ./tasks
COPY --from=build /app/prompts ./prompts
COPY --from=build /app/src/viewer/page ./src/viewer/page
ENV TTI_CHROMIUM=/usr/bin/chromium NODE_ENV=production
# The run directory of a supervisor, and a joining worker's work folder.
VOLUME ["/runs"]
ENTRYPOINT ["node", "/app/bin/tti-run"]
CMD ["--help"]
