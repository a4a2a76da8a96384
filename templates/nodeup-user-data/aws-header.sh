# kforge node bootstrap (EC2 user-data), modelled on kops's nodeup user-data: install the pinned Node.js
# runtime and the nodeup bundle (each checked against its sha256), write the boot config, then run nodeup.
# nodeup reads the rest (igconfig/<role>/<ig>/nodeupconfig.yaml) from the state store with this instance's
# own IAM role (the control plane: ConfigBase), or from the node-identity service (a worker: ConfigServer,
# which has no access to the store), and checks it against NodeupConfigHash below. No secret is in here:
# user-data is readable by anyone who may describe the instance (the kops-controller-ca certificate is
# public). See docs/node-bootstrap.md and docs/node-identity.md.
