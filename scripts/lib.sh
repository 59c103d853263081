# Shared by scripts/run and scripts/test.
: "${CARGO_TARGET_DIR:=$PWD/target}"
export CARGO_TARGET_DIR

step() { printf '\n==> %s\n' "$*"; }

# Install the web app's packages when package-lock.json changed, then build it into
# web/dist (embedded by the release binary).
install_web() {
  if [ ! -f web/node_modules/.package-lock.json ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
    # `npm install` with the committed lock installs exactly its versions. Not `npm ci`:
    # a registry mirror that lacks rollup's other-platform optional packages (this one
    # did until 2026-11) makes `npm ci` reject the lock as out of sync.
    step "Installing the web app's packages (npm install, from package-lock.json)"
    (cd web && npm install --no-audit --no-fund --prefer-offline)
  fi
}

build_web() {
  install_web
  step "Building the web app (web/dist)"
  (cd web && npm run --silent build)
}
