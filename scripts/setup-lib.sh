# Shared set-up for scripts/studio and scripts/test (sourced, not run).
# Installs the Debian 12 packages animpack needs (only those missing) and configures/builds a tree.

ANIMPACK_PACKAGES=(
  cmake g++ make ninja-build pkg-config clang-format
  qt6-base-dev libqt6opengl6-dev qt6-3d-dev libqcustomplot-dev
  libassimp-dev zlib1g-dev libeigen3-dev nlohmann-json3-dev libbenchmark-dev
  xvfb xauth libgl1-mesa-dri fonts-dejavu-core imagemagick chromium
  assimp-testmodels
)

animpack_root() { cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd; }

# Installs missing packages with apt-get (as root, or through sudo). Skips apt when all are present.
animpack_install_packages() {
  local missing=()
  for p in "${ANIMPACK_PACKAGES[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "== packages: all ${#ANIMPACK_PACKAGES[@]} present"
    return 0
  fi
  echo "== installing: ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "need root or sudo to install: ${missing[*]}" >&2; return 1; }
    sudo="sudo"
  fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

animpack_jobs() { nproc 2>/dev/null || echo 2; }
