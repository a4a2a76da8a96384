# kforge node bootstrap (GCE instance metadata: startup-script, or user-data for cloud-init), modelled on
# kops's nodeup user-data: install the pinned Node.js runtime and the nodeup bundle (each checked against
# its sha256), write the boot config, then run nodeup. nodeup reads the rest
# (igconfig/<role>/<ig>/nodeupconfig.yaml) from the state store with this instance's service account (the
# control plane: ConfigBase), or from the node-identity service with Google's identity token for this
# instance (a worker: ConfigServer, which needs no access to the store), and checks it against
# NodeupConfigHash below. No secret is in here: instance metadata is readable by anyone who may get the
# instance, and by every process on it (the kops-controller-ca certificate is public). See
# docs/node-bootstrap.md and docs/node-identity.md.
