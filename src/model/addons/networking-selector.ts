/**
 * kops's networkingSelector (bootstrapchannelbuilder.go): the channel selector of every networking addon and a
 * label on each of its objects, so that switching CNIs replaces the old one's objects instead of leaving its pods.
 */
export const NETWORKING_SELECTOR: Readonly<Record<string, string>> = { 'role.kubernetes.io/networking': '1' };
