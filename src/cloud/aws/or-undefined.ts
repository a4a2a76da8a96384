import { classifyAwsError } from './aws-errors';

/** The value, or undefined when the cloud says the entity does not exist (IAM's NoSuchEntity, Route 53's NoSuchHostedZone). */
export async function orUndefined<T>(read: () => Promise<T | undefined>): Promise<T | undefined> {
  try {
    return await read();
  } catch (e) {
    if (classifyAwsError(e) === 'not-found') return undefined;
    throw e;
  }
}

