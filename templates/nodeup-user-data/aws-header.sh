# kforge node bootstrap (EC2 user-data), modelled on kops's nodeup user-data: install the pinned Node.js
# runtime and the nodeup bundle (each checked against its sha256), write the boot config, then run nodeup.
# nodeup reads the rest (igconfig/<role>/<ig>/nodeupconfig.yaml) from the state store with this instance's
# own IAM role, and checks it against NodeupConfigHash below. No secret is in here: user-data is readable
# by anyone who may describe the instance. See docs/node-bootstrap.md.
