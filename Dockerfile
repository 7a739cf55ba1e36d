# rtserve, CPU image (docs/deploy.md). Multi-stage: the build stage installs every dependency and compiles
# TypeScript and the browser demo; the runtime stage ships the compiled server with production dependencies only,
# runs as the unprivileged `node` user and listens on all interfaces.
#
#   podman build --format docker -t rtserve:cpu .      # or: docker build -t rtserve:cpu .
#   podman run -p 8000:8000 -p 8001:8001 -p 8002:8002 rtserve:cpu
#   podman run -v ./my-models:/models:ro -e RTSERVE_MODEL_REPOSITORY=/models ... rtserve:cpu   # mounted models
#
# The bundled example models (models/) are baked in and served when no repository is given; mount your own
# repository (Triton layout) and point RTSERVE_MODEL_REPOSITORY or --model-repository at it. `--format docker`
# keeps the HEALTHCHECK (the OCI image format has no health checks).
ARG NODE_IMAGE=docker.io/library/node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
# Dependencies first, so that a source change does not reinstall them. No install scripts: onnxruntime-node and
# sharp ship prebuilt binaries in their packages, and rtserve's own `prepare` (tsc) runs below, after the sources.
COPY package.json package-lock.json .npmrc ./
# The client's workspace (packages/client) is part of the lock: its package.json before the install, its sources
# before the build (the server's build compiles them into dist/packages/client).
COPY packages/client/package.json packages/client/package.json
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY bin bin
COPY src src
COPY packages packages
COPY models models
COPY scripts/build-web.mjs scripts/build-web.mjs
COPY web web
# dist/ (the server) and dist/web/app.js (the demo bundle: esbuild is a dev dependency, gone at runtime), then
# the dev dependencies are dropped, and onnxruntime-node's binaries for other systems (about 200 MB).
RUN npm run build \
 && node scripts/build-web.mjs \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
 && node -e "const fs=require('fs'),p=require('path');for(const v of fs.readdirSync('node_modules/onnxruntime-node/bin')){const d=p.join('node_modules/onnxruntime-node/bin',v);for(const os of fs.readdirSync(d)){if(os!==process.platform){fs.rmSync(p.join(d,os),{recursive:true});continue}for(const a of fs.readdirSync(p.join(d,os)))if(a!==process.arch)fs.rmSync(p.join(d,os,a),{recursive:true})}}" \
 && rm -rf dist/models

FROM ${NODE_IMAGE}
# OCI image annotations (github.com/opencontainers/image-spec, annotations.md). The version follows package.json
# (test/integration/deploy/dockerfiles.test.ts checks it); a release build passes the commit and the time:
#   --build-arg RTSERVE_REVISION="$(git rev-parse HEAD)" --build-arg RTSERVE_CREATED="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
ARG NODE_IMAGE
ARG RTSERVE_VERSION=0.1.0
ARG RTSERVE_REVISION=""
ARG RTSERVE_CREATED=""
LABEL org.opencontainers.image.title="rtserve (CPU)" \
      org.opencontainers.image.description="Real-time inference server for ONNX models (KServe v2 REST and gRPC, WebSocket streaming, dynamic batching) on the CPU" \
      org.opencontainers.image.version="${RTSERVE_VERSION}" \
      org.opencontainers.image.revision="${RTSERVE_REVISION}" \
      org.opencontainers.image.created="${RTSERVE_CREATED}" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.base.name="${NODE_IMAGE}"
ENV NODE_ENV=production \
    RTSERVE_HOST=0.0.0.0
WORKDIR /opt/rtserve
# Read-only for the server's user: everything belongs to root.
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules node_modules
COPY --from=build /src/dist dist
COPY --from=build /src/bin bin
COPY --from=build /src/models models
COPY --from=build /src/web web
# The .proto files are read at runtime (gRPC service definitions and reflection); the ONNX bindings are
# package.json's "#onnx-proto" import (generated code beside src/onnx/onnx.proto).
COPY --from=build /src/src/transport/grpc/proto src/transport/grpc/proto
COPY --from=build /src/src/onnx/generated src/onnx/generated
USER node
# HTTP (REST, SSE, WebSocket), gRPC, Prometheus metrics.
EXPOSE 8000 8001 8002
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.RTSERVE_HTTP_PORT||8000)+'/v2/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "bin/rtserve.js"]
CMD ["serve", "--host", "0.0.0.0"]
