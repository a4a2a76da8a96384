/** kops's well-known port of kops-controller (pkg/wellknownports.KopsControllerPort): the node-identity service's. */
export const KOPS_CONTROLLER_PORT = 3988;
