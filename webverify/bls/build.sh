#!/bin/sh
# Rebuilds the page's BLS12-381 bundle from package-lock.json (npm ci: @noble/curves, MIT,
# by Paul Miller; esbuild to bundle) and puts it into ../verify.html between its markers.
# Run from anywhere: sh webverify/bls/build.sh. Needs node and npm (network for npm ci).
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund >/dev/null
node_modules/.bin/esbuild entry.js --bundle --minify --format=iife --global-name=NVBLS \
  --legal-comments=none --target=es2020 --outfile=bundle.js
node - <<'JS'
const fs = require("fs");
const page = fs.readFileSync("../verify.html", "utf8");
const bundle = fs.readFileSync("bundle.js", "utf8").trim();
const begin = "<script>/* bls bundle: @noble/curves 1.9.7 (MIT, github.com/paulmillr/noble-curves), rebuilt by webverify/bls/build.sh */\n";
const end = "\n</script><!-- end of bls bundle -->";
const i = page.indexOf(begin), j = page.indexOf(end);
if (i < 0 || j < i) throw new Error("verify.html has no bls bundle markers");
fs.writeFileSync("../verify.html", page.slice(0, i + begin.length) + bundle + page.slice(j));
JS
rm bundle.js
