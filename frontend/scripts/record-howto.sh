#!/usr/bin/env bash
# Re-records the demo how-to videos (frontend/public/media/howto/*.webm) from Pao's own screens:
# builds the app, runs scripts/howto/record-howto.spec.ts against a fresh demo backend with
# Playwright's video recording, then re-encodes each screencast small (VP9, ~15 fps) so that a
# few seconds stay well under 300 KB.
#
# Needs ffmpeg on the PATH (Debian: apt-get install ffmpeg): Playwright records through an
# ffmpeg of its own, which this workplace cannot download, so the system one stands in for it.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v ffmpeg >/dev/null || { echo "ffmpeg is needed (apt-get install ffmpeg)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Playwright looks for its ffmpeg at <browsers path>/ffmpeg-<revision>/ffmpeg-linux.
revision=$(node -e "const fs=require('fs');console.log(JSON.parse(fs.readFileSync('node_modules/playwright-core/browsers.json','utf8')).browsers.find((b)=>b.name==='ffmpeg').revision)")
mkdir -p "$work/browsers/ffmpeg-$revision"
ln -s "$(command -v ffmpeg)" "$work/browsers/ffmpeg-$revision/ffmpeg-linux"

[ "${HOWTO_SKIP_BUILD:-}" = 1 ] || npm run build
PLAYWRIGHT_BROWSERS_PATH="$work/browsers" HOWTO_RAW_DIR="$work/raw" PAO_E2E_WORKERS=1 \
  npx playwright test -c scripts/howto/record.config.ts

mkdir -p public/media/howto
for key in wallet enter_game check_balance receive_bonus end_bonus; do
  raw="$work/raw/$key.webm"
  out="public/media/howto/$key.webm"
  ffmpeg -loglevel error -y -i "$raw" -an -c:v libvpx-vp9 -crf 36 -b:v 0 -r 15 \
    -deadline good -cpu-used 4 -row-mt 1 "$out"
  echo "$out: $(($(stat -c %s "$out") / 1024)) KB"
done
