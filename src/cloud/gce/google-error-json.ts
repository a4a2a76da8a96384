/**
 * What a Google API's error answer says (`{"error":{"code","message","errors":[{"reason"}]}}`), or nothing
 * when the body is not that JSON (a proxy's page: the HTTP status alone then says what happened). Shared by
 * the small REST clients that are bundled into the nodeup artifact (Cloud DNS, protokube's Compute calls).
 */
export function googleErrorJson(text: string): { message?: string; errors: Array<{ reason?: string; message?: string }> } {
  try {
    const e = (JSON.parse(text) as { error?: { message?: string; errors?: Array<{ reason?: string; message?: string }> } }).error;
    return { message: e?.message, errors: e?.errors ?? [] };
  } catch {
    return { errors: [] };
  }
}
