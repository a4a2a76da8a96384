/** Default image of a Kubernetes control-plane component: `registry.k8s.io/<component>:v<version>`. */
export function componentImage(component: string, kubernetesVersion: string): string {
  return `registry.k8s.io/${component}:v${kubernetesVersion}`;
}

/** Rewrites an image to come from `registry` instead of its own registry host, keeping the repository path. */
export function remapImage(image: string, registry: string | undefined): string {
  if (!registry) return image;
  const parts = image.split('/');
  // The first path element is a registry host when it has a dot, a port or is localhost (Docker's rule).
  const hasHost = parts.length > 1 && (/[.:]/.test(parts[0]) || parts[0] === 'localhost');
  const rest = hasHost ? parts.slice(1).join('/') : image;
  return `${registry.replace(/\/+$/, '')}/${rest}`;
}

/** Rewrites a download URL to come from `repository`, keeping the URL's path. */
export function remapFileUrl(url: string, repository: string | undefined): string {
  if (!repository) return url;
  const u = new URL(url);
  return `${repository.replace(/\/+$/, '')}${u.pathname}`;
}
