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

