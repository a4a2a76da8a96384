/** An IAM policy document: `Version` and its statements. */
export interface IamPolicyDocument {
  Version: '2012-10-17';
  Statement: IamStatement[];
}

/** One statement of an IAM policy document. */
export interface IamStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  Resource?: string | string[];
  Principal?: Record<string, string | string[]>;
  Condition?: Record<string, Record<string, string | string[]>>;
}

/**
 * A policy document as canonical JSON (object keys sorted at every level), so two documents compare equal
 * when they mean the same. IAM returns documents URL-encoded and with its own key order and spacing, so a
 * string is decoded first when it is not JSON as it stands.
 */
export function canonicalPolicy(doc: string | IamPolicyDocument): string {
  const value: unknown = typeof doc === 'string' ? JSON.parse(doc.trimStart().startsWith('{') ? doc : decodeURIComponent(doc)) : doc;
  return JSON.stringify(sortKeys(value));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v !== 'object' || v === null) return v;
  const o = v as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, sortKeys(o[k])]),
  );
}
