#!/bin/bash
# kforge node bootstrap (EC2 user-data), modelled on kops's nodeup user-data: write the boot config, then
# download nodeup, verify its sha256 and run it. nodeup reads the rest (igconfig/<role>/<ig>/nodeupconfig.yaml)
# from the state store with this instance's own IAM role, and checks it against NodeupConfigHash below.
# No secret is in here: user-data is readable by anyone who may describe the instance.
set -o errexit
set -o nounset
set -o pipefail

NODEUP_URL_AMD64=https://nodeup.kforge.invalid/v0.1.0/linux/amd64/nodeup
NODEUP_HASH_AMD64=0000000000000000000000000000000000000000000000000000000000000000
NODEUP_URL_ARM64=https://nodeup.kforge.invalid/v0.1.0/linux/arm64/nodeup
NODEUP_HASH_ARM64=0000000000000000000000000000000000000000000000000000000000000000

export AWS_REGION=us-east-1

INSTALL_DIR=/opt/kforge

ensure-install-dir() {
  mkdir -p "${INSTALL_DIR}/bin" "${INSTALL_DIR}/conf"
  cd "${INSTALL_DIR}"
}

# Succeeds when the file's sha256 is the expected one.
validate-hash() {
  local -r file="$1"
  local -r expected="$2"
  local actual
  actual=$(sha256sum "${file}" | awk '{ print $1 }') || true
  if [[ "${actual}" != "${expected}" ]]; then
    echo "== File ${file} is corrupted; hash ${actual} does not match expected ${expected} =="
    return 1
  fi
}

# Downloads a file until one of the URLs (comma-separated) gives the expected hash; never runs a file that
# does not match. Arguments: file, sha256, urls.
download-or-bust() {
  local -r file="$1"
  local -r hash="$2"
  local -a urls
  IFS=, read -r -a urls <<< "$3"
  echo "== Downloading ${file} with hash ${hash} from $3 =="

  if [[ -f "${file}" ]]; then
    if validate-hash "${file}" "${hash}"; then
      return 0
    fi
    rm -f "${file}"
  fi

  while true; do
    for url in "${urls[@]}"; do
      for tool in curl wget; do
        echo "== Downloading ${url} with ${tool} =="
        if [[ "${tool}" == curl ]]; then
          if ! curl -f --compressed -Lo "${file}" --connect-timeout 20 --retry 6 --retry-delay 10 "${url}"; then
            echo "== Failed to download ${url} with ${tool} =="
            continue
          fi
        elif ! wget --compression=auto -O "${file}" --connect-timeout=20 --tries=6 --wait=10 "${url}"; then
          echo "== Failed to download ${url} with ${tool} =="
          continue
        fi
        if validate-hash "${file}" "${hash}"; then
          echo "== Downloaded ${url} with hash ${hash} =="
          return 0
        fi
        echo "== Failed to validate the hash of ${url} =="
        rm -f "${file}"
      done
    done
    echo "== All downloads failed; sleeping before retrying =="
    sleep 60
  done
}

download-release() {
  local url hash
  case "$(uname -m)" in
  x86_64* | amd64*)
    url="${NODEUP_URL_AMD64}"
    hash="${NODEUP_HASH_AMD64}"
    ;;
  aarch64* | arm64*)
    url="${NODEUP_URL_ARM64}"
    hash="${NODEUP_HASH_ARM64}"
    ;;
  *)
    echo "Unsupported host architecture: $(uname -m)" >&2
    exit 1
    ;;
  esac

  cd "${INSTALL_DIR}/bin"
  download-or-bust nodeup "${hash}" "${url}"
  chmod +x nodeup

  echo "== Running nodeup =="
  (cd "${INSTALL_DIR}/bin" && ./nodeup --install-systemd-unit --conf="${INSTALL_DIR}/conf/kube_env.yaml")
}

####################################################################################

/bin/systemd-machine-id-setup || echo "== Failed to initialize the machine ID; ensure machine-id is configured =="

echo "== nodeup node config starting =="
ensure-install-dir

cat > conf/kube_env.yaml << '__EOF_KUBE_ENV'
CloudProvider: aws
ClusterName: userdata.example.com
ConfigBase: s3://kforge-state/team/userdata.example.com
InstanceGroupName: control-plane-us-east-1a
InstanceGroupRole: ControlPlane
NodeupConfigHash: abababababababababababababababababababababababababababababababab
__EOF_KUBE_ENV

download-release
echo "== nodeup node config done =="
