/** The API server did not come up before the pass's deadline; the message is the last thing it (or the network) answered. Not a failure: the next pass tries again. */
export class ApiNotUpError extends Error {}
