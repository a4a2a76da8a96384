# An s3:// URL (the nodeup bundle in the state store) is read with this instance's IAM role.
