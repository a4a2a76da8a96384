# The instance-metadata service; AWS_EC2_METADATA_SERVICE_ENDPOINT (the AWS SDKs' variable) moves it, and
# AWS_ENDPOINT_URL_S3 moves S3 (path-style), as for nodeup.
IMDS="${AWS_EC2_METADATA_SERVICE_ENDPOINT:-http://169.254.169.254}"
IMDS="${IMDS%/}"
