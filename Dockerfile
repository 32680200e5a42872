# syntax=docker/dockerfile:1
# One image for every role of mdw (populator, server, migrate, operator, …): the role is the argument,
#   docker run <image> -p -s        docker run <image> operator        docker run <image> migrate
# It writes nothing outside /tmp, so it runs with readOnlyRootFilesystem and an emptyDir on /tmp.
# test/operator/image/dockerfile.test.ts rehearses these steps without a container engine; test/e2e/image.test.ts runs
# the image built by podman (`make image-local`, on a stand-in base where no registry of images can be reached).
# The base of both stages. The default is the tag, for development builds; a release names it by digest, which
# `make image` requires (NODE_IMAGE=node:24-bookworm-slim@sha256:<digest>, from `docker buildx imagetools inspect`):
# a digest cannot be looked up offline, so none is written here.
ARG NODE_IMAGE=node:24-bookworm-slim

# Stage 1: compile the TypeScript sources to dist/ with the full (dev) dependency set.
FROM ${NODE_IMAGE} AS build
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npx tsc -p tsconfig.build.json

# Stage 2: production dependencies, the compiled output, the migrations; nothing else.
FROM ${NODE_IMAGE} AS runtime
# A fixed mmap threshold: glibc otherwise raises it after large buffers are freed, and the
# populator's batch buffers then fragment the heap (RSS grew 306 → 410 MiB over 300k txs, flat with this).
ENV NODE_ENV=production HOME=/tmp MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY package.json package-lock.json ./
# typescript is no dependency of ours in production: @metamask/messenger (under @aeternity/aepp-sdk) names it as a
# peer for a code generator of its own that nothing here runs, so npm installs it; it goes (23 MB, a compiler).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force \
  && rm -rf node_modules/typescript node_modules/.bin/tsc node_modules/.bin/tsserver
# oclif reads its command list from package.json: in the image it is the compiled one.
RUN npm pkg set oclif.commands.target=./dist/cli/commands.js
COPY bin ./bin
COPY migrations ./migrations
COPY --from=build /build/dist ./dist
# The node image's unprivileged user, by number so runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 8080 3020
ENTRYPOINT ["node", "/app/bin/mdw.js"]
