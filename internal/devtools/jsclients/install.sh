#!/usr/bin/env bash
# Install the npm packages the Blockfrost dialect's tests drive (the
# clients and Blockfrost's OpenAPI document, pinned by package-lock.json)
# into node_modules beside this script, with `npm ci`. Idempotent: skipped
# when the installed tree came from this very lock. Node.js and npm come
# from Debian's packages when the machine has none (as .ci/services does
# for Chromium). Called by `.ci/services --browser` (make test) and by
# jsclients.Require when a test finds nothing installed.
set -euo pipefail
cd "$(dirname "$0")"

have() { command -v "$1" >/dev/null 2>&1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if ! have node || ! have npm; then
  echo "jsclients: installing Node.js and npm" >&2
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi

# One install at a time: go test runs several test binaries at once, and
# each may call this script.
exec 9<.
flock 9

stamp=node_modules/.syncgate-lock
want=$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
echo "jsclients: npm ci ($(node --version))" >&2
start=$SECONDS
# No install scripts: none of these packages needs one (the only one,
# cbor-extract's, builds an optional native speed-up that cbor-x does
# without), and a script could reach past the registry.
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2
echo "$want" >"$stamp"
echo "jsclients: installed in $((SECONDS - start))s ($(du -sh node_modules | cut -f1))" >&2
