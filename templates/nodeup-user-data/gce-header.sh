# kforge node bootstrap (GCE instance metadata: startup-script, or user-data for cloud-init), modelled on
# kops's nodeup user-data: install the pinned Node.js runtime and the nodeup bundle (each checked against
# its sha256), write the boot config, then run nodeup. nodeup reads the rest
# (igconfig/<role>/<ig>/nodeupconfig.yaml) from the state store with this instance's service account, and
# checks it against NodeupConfigHash below. No secret is in here: instance metadata is readable by anyone
# who may get the instance, and by every process on it. See docs/node-bootstrap.md.
