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

# Stage 1: compile the TypeScript sources to dist/ with the full (dev) dependency set, and copy GraphiQL's page files
# (graphiql's and React's standalone builds, development dependencies) into dist/graphiql/, where the server reads them.
FROM ${NODE_IMAGE} AS build
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# without source maps here: nothing in the image enables them (`make build`'s dist/ keeps them); without the type check,
# which `make test` runs on the same sources and which changes nothing emitted: the same dist/, at about half the CPU
RUN npx tsc -p tsconfig.build.json --sourceMap false --noCheck
RUN node --input-type=module -e "await (await import('./dist/api/mdw/graphql/graphiql.js')).bundleGraphiql('dist/graphiql')"

# Stage 2: /app as the image holds it: production dependencies, the compiled output, the migrations; nothing else.
FROM ${NODE_IMAGE} AS app
WORKDIR /app
COPY package.json package-lock.json ./
# What the binary never runs goes: typescript (@metamask/messenger, under @aeternity/aepp-sdk, names it as a peer for a
# code generator of its own that nothing here runs, so npm installs it; 23 MB, a compiler), the type declarations
# (@types/* that dependencies list as their own dependencies), TypeScript sources (*.d.ts among them: Node strips no
# types under node_modules), source maps (nothing here enables them), the packages' Markdown, and Bare's prebuilt
# addons (*.bare, which only the Bare runtime loads: the bare-* packages run Node's own modules under Node).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force \
  && rm -rf node_modules/typescript node_modules/.bin/tsc node_modules/.bin/tsserver \
  && find node_modules -type d -name @types -prune -exec rm -rf {} + \
  && find node_modules -type f \( -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -name '*.map' -o -name '*.md' \
    -o -name '*.bare' \) -delete
# oclif reads its command list from package.json: in the image it is the compiled one.
RUN npm pkg set oclif.commands.target=./dist/cli/commands.js
COPY bin ./bin
COPY migrations ./migrations
COPY --from=build /build/dist ./dist

# Stage 3: the base without what only an install or a native build uses: npm (and corepack, yarn where the base has
# them) and Node's C headers, 86 MB of the 281 a Node 24 slim base weighs. Never rehearsed on a host (absolute paths).
FROM ${NODE_IMAGE} AS base
RUN rm -rf /usr/local/include/node /usr/local/lib/node_modules /opt/yarn-* \
  /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/yarnpkg

# Stage 4: the image, one layer of the trimmed base and one of /app: a layer on top of the base could hide its files,
# never drop their bytes. The base's environment is not copied with its files: PATH is the base's, written again.
FROM scratch AS runtime
COPY --from=base / /
COPY --from=app /app /app
# A fixed mmap threshold: glibc otherwise raises it after large buffers are freed, and the
# populator's batch buffers then fragment the heap (RSS grew 306 → 410 MiB over 300k txs, flat with this).
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  NODE_ENV=production HOME=/tmp MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
# The node image's unprivileged user, by number so runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 8080 3020
ENTRYPOINT ["node", "/app/bin/mdw.js"]
