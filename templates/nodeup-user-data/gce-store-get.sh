# An object name percent-encoded for a URL path: every byte but letters, digits and -._~.
url-encode() {
  local -r s="$1"
  local i c out=
  for ((i = 0; i < ${#s}; i++)); do
    c="${s:i:1}"
    case "${c}" in
    [A-Za-z0-9._~-]) out+="${c}" ;;
    *) out+=$(printf '%%%02X' "'${c}") ;;
    esac
  done
  printf '%s' "${out}"
}

# Reads gs://BUCKET/OBJECT into FILE as this instance: an access token of its service account from the
# metadata server, then a GET of the object's bytes from the Cloud Storage JSON API. The token reaches curl
# as a config on its standard input, never on a command line, and is not written anywhere.
# Arguments: url, file.
gs-get() {
  local bucket="${1#gs://}"
  local -r object="${bucket#*/}"
  bucket="${bucket%%/*}"
  local token
  token=$(curl -fsS --connect-timeout 10 --max-time 30 -H "Metadata-Flavor: Google" "${METADATA}/computeMetadata/v1/instance/service-accounts/default/token" | json-field access_token) || return 1
  [[ -n "${token}" ]] || return 1
  printf 'header = "Authorization: Bearer %s"\n' "${token}" |
    curl -fsS --connect-timeout 10 --max-time 600 -K - -o "$2" "${GCS}/storage/v1/b/${bucket}/o/$(url-encode "${object}")?alt=media"
}

