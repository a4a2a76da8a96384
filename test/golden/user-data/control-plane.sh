#!/bin/bash
# kforge node bootstrap (EC2 user-data), modelled on kops's nodeup user-data: install the pinned Node.js
# runtime and the nodeup bundle (each checked against its sha256), write the boot config, then run nodeup.
# nodeup reads the rest (igconfig/<role>/<ig>/nodeupconfig.yaml) from the state store with this instance's
# own IAM role (the control plane: ConfigBase), or from the node-identity service (a worker: ConfigServer,
# which has no access to the store), and checks it against NodeupConfigHash below. No secret is in here:
# user-data is readable by anyone who may describe the instance (the kops-controller-ca certificate is
# public). See docs/node-bootstrap.md and docs/node-identity.md.
set -o errexit
set -o nounset
set -o pipefail

# Each download: its sha256, then the URLs to try in order (mirrors of the same bytes, comma-separated).
# An s3:// URL (the nodeup bundle in the state store) is read with this instance's IAM role.
NODE_HASH_AMD64=1111111111111111111111111111111111111111111111111111111111111111
NODE_URLS_AMD64=https://nodejs.org/dist/v24.15.0/node-v24.15.0-linux-x64.tar.xz,https://nodejs.org/download/release/v24.15.0/node-v24.15.0-linux-x64.tar.xz
NODE_HASH_ARM64=2222222222222222222222222222222222222222222222222222222222222222
NODE_URLS_ARM64=https://nodejs.org/dist/v24.15.0/node-v24.15.0-linux-arm64.tar.xz
NODEUP_HASH=3333333333333333333333333333333333333333333333333333333333333333
NODEUP_URLS=s3://kforge-state/team/userdata.example.com/assets/nodeup/3333333333333333333333333333333333333333333333333333333333333333/nodeup

export AWS_REGION=us-east-1

INSTALL_DIR=/opt/kforge
# The instance-metadata service; AWS_EC2_METADATA_SERVICE_ENDPOINT (the AWS SDKs' variable) moves it, and
# AWS_ENDPOINT_URL_S3 moves S3 (path-style), as for nodeup.
IMDS="${AWS_EC2_METADATA_SERVICE_ENDPOINT:-http://169.254.169.254}"
IMDS="${IMDS%/}"
# Download rounds over all URLs, with waits of 2, 4, 8, ... seconds (at most 60) between them: bounded, so a
# node that cannot download fails visibly (cloud-init reports it) instead of waiting forever. The
# node-identity service gets more rounds (about 25 minutes): workers often boot before the control plane.
ROUNDS=6
SERVICE_ROUNDS=30
# The kops-controller-ca bundle (public; empty on the control plane): downloads from the node-identity
# service (https://kops-controller.internal.<cluster>:3988) trust this CA and nothing else.
CONFIG_SERVER_CA="${INSTALL_DIR}/conf/kops-controller-ca.crt"
# Without DNS the service's name does not resolve: curl connects it to the API load balancer's DNS name
# (kops-controller.internal.<cluster>:3988:<load balancer>:3988) and still checks the certificate for the name.
CONFIG_SERVER_CONNECT_TO=""

fail() {
  echo "== kforge bootstrap FAILED: $* ==" >&2
  exit 1
}

sha256-of() {
  sha256sum "$1" | cut -d' ' -f1
}

# The value of a string field of the metadata service's JSON (one field per line on EC2, one line in tests).
json-field() {
  sed -n "s/.*\"$1\" *: *\"\([^\"]*\)\".*/\1/p" | head -n 1
}

# Reads s3://BUCKET/KEY into FILE as this instance: an IMDSv2 token, the role's temporary credentials, and
# a GET that curl signs (--aws-sigv4 needs curl 7.75 or later: Ubuntu 22.04 and 24.04, Debian 12). The
# credentials reach curl as a config on its standard input, never on a command line, and are not written
# anywhere. The bucket's region is the one S3 names (x-amz-bucket-region), else the cluster's.
# Arguments: url, file.
s3-get() {
  local bucket="${1#s3://}"
  local -r key="${bucket#*/}"
  bucket="${bucket%%/*}"
  local token role creds region endpoint
  token=$(curl -fsS --connect-timeout 10 --max-time 30 -X PUT -H "X-aws-ec2-metadata-token-ttl-seconds: 300" "${IMDS}/latest/api/token") || return 1
  role=$(curl -fsS --connect-timeout 10 --max-time 30 -H "X-aws-ec2-metadata-token: ${token}" "${IMDS}/latest/meta-data/iam/security-credentials/" | head -n 1) || return 1
  creds=$(curl -fsS --connect-timeout 10 --max-time 30 -H "X-aws-ec2-metadata-token: ${token}" "${IMDS}/latest/meta-data/iam/security-credentials/${role}") || return 1
  if [[ -n "${AWS_ENDPOINT_URL_S3:-}" ]]; then
    region="${AWS_REGION}"
    endpoint="${AWS_ENDPOINT_URL_S3%/}/${bucket}"
  else
    region=$(curl -sSI --connect-timeout 10 --max-time 30 "https://s3.amazonaws.com/${bucket}" | tr -d '\r' | sed -n 's/^x-amz-bucket-region: *//Ip' | head -n 1)
    region="${region:-${AWS_REGION}}"
    endpoint="https://s3.${region}.amazonaws.com/${bucket}"
  fi
  printf 'user = "%s:%s"\nheader = "x-amz-security-token: %s"\nheader = "x-amz-content-sha256: %s"\n' \
    "$(json-field AccessKeyId <<< "${creds}")" "$(json-field SecretAccessKey <<< "${creds}")" "$(json-field Token <<< "${creds}")" \
    e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 |
    curl -fsS --connect-timeout 10 --max-time 600 --aws-sigv4 "aws:amz:${region}:s3" -K - -o "$2" "${endpoint}/${key}"
}

# Downloads to FILE from the first URL that answers, retrying with exponential backoff, and keeps it only
# if its sha256 is HASH. A file with another hash fails closed at once: the URL served bytes that are not
# the ones this cluster names (tampering or a wrong mirror), and trying again would not change that.
# Arguments: file, sha256, urls.
download() {
  local -r file="$1" hash="$2"
  local -a urls
  IFS=, read -r -a urls <<< "$3"
  local round url actual delay=2 rounds="${ROUNDS}"
  [[ "$3" == https://kops-controller.internal.* ]] && rounds="${SERVICE_ROUNDS}"
  for ((round = 1; round <= rounds; round++)); do
    for url in "${urls[@]}"; do
      echo "== Downloading ${url} (round ${round} of ${rounds}) =="
      rm -f "${file}.part"
      if [[ "${url}" == https://kops-controller.internal.* ]]; then
        local -a connect=()
        if [[ -n "${CONFIG_SERVER_CONNECT_TO}" ]]; then connect=(--connect-to "${CONFIG_SERVER_CONNECT_TO}"); fi
        curl -fsS --connect-timeout 10 --max-time 600 --cacert "${CONFIG_SERVER_CA}" "${connect[@]}" -o "${file}.part" "${url}" || {
          echo "== Failed to download ${url} from the node-identity service ==" >&2
          continue
        }
      elif [[ "${url}" == s3://* ]]; then
        s3-get "${url}" "${file}.part" || {
          echo "== Failed to read ${url} with this instance's role ==" >&2
          continue
        }
      elif ! curl -fsSL --connect-timeout 10 --max-time 600 -o "${file}.part" "${url}"; then
        echo "== Failed to download ${url} ==" >&2
        continue
      fi
      actual=$(sha256-of "${file}.part")
      if [[ "${actual}" != "${hash}" ]]; then
        rm -f "${file}.part"
        fail "${url} has sha256 ${actual}, not the expected ${hash}; nothing was installed"
      fi
      mv "${file}.part" "${file}"
      return 0
    done
    if ((round < rounds)); then
      echo "== No URL answered; retrying in ${delay} s ==" >&2
      sleep "${delay}"
      delay=$((delay * 2 > 60 ? 60 : delay * 2))
    fi
  done
  fail "could not download ${file} from ${3} after ${rounds} rounds"
}

# The Node.js runtime under ${INSTALL_DIR}/node, unless the one with this hash is there already.
install-runtime() {
  local hash urls
  case "$(uname -m)" in
  x86_64 | amd64)
    hash="${NODE_HASH_AMD64}"
    urls="${NODE_URLS_AMD64}"
    ;;
  aarch64 | arm64)
    hash="${NODE_HASH_ARM64}"
    urls="${NODE_URLS_ARM64}"
    ;;
  *)
    fail "unsupported host architecture $(uname -m)"
    ;;
  esac
  if [[ -x "${INSTALL_DIR}/node/bin/node" && "$(cat "${INSTALL_DIR}/node/.sha256" 2>/dev/null)" == "${hash}" ]]; then
    echo "== Node.js runtime ${hash} already installed =="
    return 0
  fi
  download "${INSTALL_DIR}/download/node.tar.xz" "${hash}" "${urls}"
  rm -rf "${INSTALL_DIR}/node.new"
  mkdir -p "${INSTALL_DIR}/node.new"
  tar -xJf "${INSTALL_DIR}/download/node.tar.xz" --strip-components=1 --no-same-owner -C "${INSTALL_DIR}/node.new"
  echo "${hash}" > "${INSTALL_DIR}/node.new/.sha256"
  rm -rf "${INSTALL_DIR}/node"
  mv "${INSTALL_DIR}/node.new" "${INSTALL_DIR}/node"
  rm -f "${INSTALL_DIR}/download/node.tar.xz"
}

# The nodeup bundle as ${INSTALL_DIR}/bin/nodeup (its first line runs it with ${INSTALL_DIR}/node).
install-nodeup() {
  if [[ -f "${INSTALL_DIR}/bin/nodeup" && "$(sha256-of "${INSTALL_DIR}/bin/nodeup")" == "${NODEUP_HASH}" ]]; then
    echo "== nodeup ${NODEUP_HASH} already installed =="
    return 0
  fi
  download "${INSTALL_DIR}/download/nodeup" "${NODEUP_HASH}" "${NODEUP_URLS}"
  chmod 0755 "${INSTALL_DIR}/download/nodeup"
  mv "${INSTALL_DIR}/download/nodeup" "${INSTALL_DIR}/bin/nodeup"
}

####################################################################################

/bin/systemd-machine-id-setup || echo "== Failed to initialize the machine ID; ensure machine-id is configured =="

echo "== kforge node bootstrap starting =="
mkdir -p "${INSTALL_DIR}/bin" "${INSTALL_DIR}/conf" "${INSTALL_DIR}/download"
cat > "${CONFIG_SERVER_CA}" << '__EOF_CONFIG_SERVER_CA'

__EOF_CONFIG_SERVER_CA
install-runtime
install-nodeup

cat > "${INSTALL_DIR}/conf/kube_env.yaml" << '__EOF_KUBE_ENV'
CloudProvider: aws
ClusterName: userdata.example.com
ConfigBase: s3://kforge-state/team/userdata.example.com
InstanceGroupName: control-plane-us-east-1a
InstanceGroupRole: ControlPlane
NodeupConfigHash: abababababababababababababababababababababababababababababababab
__EOF_KUBE_ENV

echo "== Running nodeup =="
# --install-systemd-unit: kforge-nodeup.service runs nodeup again at every boot.
"${INSTALL_DIR}/bin/nodeup" --conf="${INSTALL_DIR}/conf/kube_env.yaml" --assets --install-systemd-unit
echo "== kforge node bootstrap done =="
