# A gs:// URL (the nodeup bundle in the state store) is read with this instance's service account.
