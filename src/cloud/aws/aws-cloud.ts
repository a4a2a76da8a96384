import { createHash } from 'node:crypto';
import type { AutoScalingClient } from '@aws-sdk/client-auto-scaling';
import type { EC2Client } from '@aws-sdk/client-ec2';
import type { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { IAMClient } from '@aws-sdk/client-iam';
import type { Route53Client } from '@aws-sdk/client-route-53';
import type { STSClient } from '@aws-sdk/client-sts';
import { MissingModelInputError } from '../../model/missing-model-input-error';
import { ApiCallCounter } from './api-call-counter';
import { AwsInventory } from './aws-inventory';
import { AwsJsonClient } from './aws-json-client';
import { preferCheapCredentialSources } from './prefer-cheap-credential-sources';
import { installUnreadableAnswerMessage } from './unreadable-answer-middleware';
import { installReadRetries } from './read-retry-middleware';
import { installLockFence } from './lock-fence-middleware';
import { installUnconfirmedCreateGuard } from './unconfirmed-create-middleware';

/** The EC2 SDK module, loaded on first use. */
export type Ec2Module = typeof import('@aws-sdk/client-ec2');

/** The IAM SDK module, loaded on first use. */
export type IamModule = typeof import('@aws-sdk/client-iam');

/** The Auto Scaling SDK module, loaded on first use. */
export type AutoScalingModule = typeof import('@aws-sdk/client-auto-scaling');

/** The Elastic Load Balancing v2 SDK module, loaded on first use. */
export type Elbv2Module = typeof import('@aws-sdk/client-elastic-load-balancing-v2');

/** The Route 53 SDK module, loaded on first use. */
export type Route53Module = typeof import('@aws-sdk/client-route-53');

/** The STS SDK module, loaded on first use. */
export type StsModule = typeof import('@aws-sdk/client-sts');

/** An SDK client kforge instruments; the union of the clients it makes. */
type AnyAwsClient = EC2Client | IAMClient | AutoScalingClient | ElasticLoadBalancingV2Client | Route53Client | STSClient | AwsJsonClient;

/** The AWS_ENDPOINT_URL_<service> suffix of each client. */
type AwsService = 'EC2' | 'IAM' | 'AUTO_SCALING' | 'ELASTIC_LOAD_BALANCING_V2' | 'ROUTE_53' | 'STS' | 'SQS' | 'EVENTBRIDGE';

/** How to reach AWS for one cluster. */
export interface AwsCloudOptions {
  clusterName: string;
  region: string;
  /** Environment for the endpoint (AWS_ENDPOINT_URL) and attempts (AWS_MAX_ATTEMPTS). Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Static credentials (tests); default: the SDK's standard chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** The cluster's UID (`<cluster>/cluster-uid`), which salts the idempotency tokens; needed only by creates that take one. */
  clusterUid?: string;
  /** Attempts the SDK makes per call. Default 3 (or AWS_MAX_ATTEMPTS). */
  maxAttempts?: number;
}

/**
 * One cluster's AWS: the lazily loaded EC2 client with the call counter and the unconfirmed-create guard
 * installed, the per-run inventory tasks find their resources in, and the cluster's idempotency tokens.
 */
export class AwsCloud {
  readonly clusterName: string;
  readonly region: string;
  /** API calls of this run, per operation. */
  readonly calls = new ApiCallCounter();
  /** The cluster's resources, one tag-filtered Describe per kind, cached for the run. */
  readonly inventory: AwsInventory;
  /**
   * The cluster's UID (`<cluster>/cluster-uid` in the state store): set before the first create that takes a
   * token. Before a cluster's first `update --yes` there is none; `update` writes it just before applying.
   */
  clusterUid: string | undefined;
  /** The account of the credentials (STS GetCallerIdentity at connect); undefined until then. */
  accountId?: string;
  /**
   * The cluster lock's fence (LockFence.verify) while the command holds the lock: every mutating call
   * awaits it first and fails with LockLostError once the lock is lost. Undefined: calls are not fenced.
   */
  fence?: () => Promise<void>;
  private ec2Client: Promise<{ sdk: Ec2Module; client: EC2Client }> | undefined;
  private iamClient: Promise<{ sdk: IamModule; client: IAMClient }> | undefined;
  private autoScalingClient: Promise<{ sdk: AutoScalingModule; client: AutoScalingClient }> | undefined;
  private elbv2Client: Promise<{ sdk: Elbv2Module; client: ElasticLoadBalancingV2Client }> | undefined;
  private route53Client: Promise<{ sdk: Route53Module; client: Route53Client }> | undefined;
  private stsClient: Promise<{ sdk: StsModule; client: STSClient }> | undefined;
  private sqsClient: AwsJsonClient | undefined;
  private eventsClient: AwsJsonClient | undefined;

  constructor(private readonly options: AwsCloudOptions) {
    this.clusterName = options.clusterName;
    this.region = options.region;
    this.clusterUid = options.clusterUid;
    this.inventory = new AwsInventory(this);
    preferCheapCredentialSources(options.env ?? process.env);
  }

  /** The EC2 SDK and client; the SDK (~150 ms to load) is imported on first use only. */
  ec2(): Promise<{ sdk: Ec2Module; client: EC2Client }> {
    this.ec2Client ??= import('@aws-sdk/client-ec2').then((sdk) => ({ sdk, client: this.instrument(new sdk.EC2Client(this.clientConfig('EC2'))) }));
    return this.ec2Client;
  }

  /** The IAM SDK and client (IAM is global; the region only picks the signing endpoint), imported on first use only. */
  iam(): Promise<{ sdk: IamModule; client: IAMClient }> {
    this.iamClient ??= import('@aws-sdk/client-iam').then((sdk) => ({ sdk, client: this.instrument(new sdk.IAMClient(this.clientConfig('IAM'))) }));
    return this.iamClient;
  }

  /** The Auto Scaling SDK and client, imported on first use only. */
  autoScaling(): Promise<{ sdk: AutoScalingModule; client: AutoScalingClient }> {
    this.autoScalingClient ??= import('@aws-sdk/client-auto-scaling').then((sdk) => ({ sdk, client: this.instrument(new sdk.AutoScalingClient(this.clientConfig('AUTO_SCALING'))) }));
    return this.autoScalingClient;
  }

  /** The Elastic Load Balancing v2 SDK and client (network load balancers), imported on first use only. */
  elbv2(): Promise<{ sdk: Elbv2Module; client: ElasticLoadBalancingV2Client }> {
    this.elbv2Client ??= import('@aws-sdk/client-elastic-load-balancing-v2').then((sdk) => ({
      sdk,
      client: this.instrument(new sdk.ElasticLoadBalancingV2Client(this.clientConfig('ELASTIC_LOAD_BALANCING_V2'))),
    }));
    return this.elbv2Client;
  }

  /** The Route 53 SDK and client (global; the region only picks the signing endpoint), imported on first use only. */
  route53(): Promise<{ sdk: Route53Module; client: Route53Client }> {
    this.route53Client ??= import('@aws-sdk/client-route-53').then((sdk) => ({ sdk, client: this.instrument(new sdk.Route53Client(this.clientConfig('ROUTE_53'))) }));
    return this.route53Client;
  }

  /** The STS SDK and client (the caller's identity: the credentials check before a plan), imported on first use only. */
  sts(): Promise<{ sdk: StsModule; client: STSClient }> {
    this.stsClient ??= import('@aws-sdk/client-sts').then((sdk) => ({ sdk, client: this.instrument(new sdk.STSClient(this.clientConfig('STS'))) }));
    return this.stsClient;
  }

  /** SQS (the node-termination-handler's queue), through kforge's JSON-protocol client (no SDK package). */
  sqs(): AwsJsonClient {
    this.sqsClient ??= this.instrument(new AwsJsonClient({ service: 'sqs', ...this.clientConfig('SQS') }));
    return this.sqsClient;
  }

  /** EventBridge (the node-termination-handler's rules and targets), through kforge's JSON-protocol client. */
  events(): AwsJsonClient {
    this.eventsClient ??= this.instrument(new AwsJsonClient({ service: 'events', ...this.clientConfig('EVENTBRIDGE') }));
    return this.eventsClient;
  }

  /** Settings every AWS client of a run shares; `service` picks its AWS_ENDPOINT_URL_<service> override. */
  private clientConfig(service: AwsService) {
    const env = this.options.env ?? process.env;
    const attempts = this.options.maxAttempts ?? Number.parseInt(env.AWS_MAX_ATTEMPTS ?? '', 10);
    return {
      region: this.region,
      endpoint: env[`AWS_ENDPOINT_URL_${service}`] || env.AWS_ENDPOINT_URL || undefined,
      credentials: this.options.credentials,
      maxAttempts: attempts > 0 ? attempts : 3,
      // Client-side rate limiting when AWS throttles (kops's lesson from #7111 and #9806); IAM's limits are
      // low and account-wide, so it backs off the same way.
      retryMode: 'adaptive',
    };
  }

  /** Counts the client's calls, and never lets it resend a create that takes no token after a lost answer. */
  private instrument<T extends AnyAwsClient>(client: T): T {
    this.calls.attach(client);
    installUnconfirmedCreateGuard(client);
    installLockFence(client, () => this.fence);
    installUnreadableAnswerMessage(client);
    installReadRetries(client);
    return client;
  }

  /**
   * The ClientToken of a task's create: derived from the cluster's UID, its name and the task, so a create
   * resent after a lost answer returns the resource the first one made instead of making another (EC2 keeps
   * tokens ~24 h), while a cluster deleted and created again under the same name (a new UID) never gets the
   * old life's answer or `IdempotentParameterMismatch`. MissingModelInputError without a UID: a token of the
   * name alone is exactly what the UID is there to prevent.
   */
  clientToken(taskKey: string): string {
    if (this.clusterUid === undefined) throw new MissingModelInputError(`the cluster UID (${this.clusterName}/cluster-uid in the state store) to derive the idempotency token of ${taskKey}`);
    return createHash('sha256').update(`${this.clusterUid}\0${this.clusterName}\0${taskKey}`).digest('hex');
  }
}
