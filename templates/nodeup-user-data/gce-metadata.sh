# The metadata server; GCE_METADATA_HOST (host[:port], Google's client libraries' variable) moves it, and
# STORAGE_EMULATOR_HOST moves Cloud Storage, as for nodeup.
METADATA="http://${GCE_METADATA_HOST:-metadata.google.internal}"
GCS="${STORAGE_EMULATOR_HOST:-https://storage.googleapis.com}"
[[ "${GCS}" == *://* ]] || GCS="http://${GCS}"
GCS="${GCS%/}"
