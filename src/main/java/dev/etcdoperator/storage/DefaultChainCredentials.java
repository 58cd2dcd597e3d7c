package dev.etcdoperator.storage;

import java.net.URI;

import dev.etcdoperator.core.backup.BackupFailure;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;

/**
 * The credentials and region of the operator's own environment, found by the AWS SDK's default chains:
 * environment variables, web identity (IAM roles for service accounts), EKS Pod Identity and other container
 * credentials, the instance profile. Used for an {@code s3} section without {@code awsSecret}. One provider for
 * the whole operator, which caches temporary credentials and refreshes them before they expire.
 */
public final class DefaultChainCredentials {
    private static volatile AwsCredentialsProvider provider;

    private DefaultChainCredentials() {
    }

    static AwsCredentialsProvider provider() {
        AwsCredentialsProvider p = provider;
        if (p == null) {
            synchronized (DefaultChainCredentials.class) {
                p = provider;
                if (p == null) {
                    p = DefaultCredentialsProvider.builder().build();
                    provider = p;
                }
            }
        }
        return p;
    }

    /**
     * Settings for the default chain, after checking that it finds credentials now, so that a missing identity
     * is reported as such rather than as a failed request.
     *
     * @param endpoint null for AWS itself
     */
    static S3Settings settings(URI endpoint, boolean forcePathStyle) {
        return settings(provider(), endpoint, forcePathStyle);
    }

    static S3Settings settings(AwsCredentialsProvider chain, URI endpoint, boolean forcePathStyle) {
        try {
            chain.resolveCredentials();
        } catch (SdkClientException e) {
            throw new BackupFailure(BackupFailure.AWS_CREDENTIALS_UNAVAILABLE, "s3.awsSecret is not set, so the "
                    + "operator looked for credentials of its own (environment, web identity, pod identity, instance "
                    + "profile) and found none: " + e.getMessage() + " Set s3.awsSecret, or give the operator's "
                    + "ServiceAccount an identity (see docs/backups.md).", true);
        }
        return S3Settings.defaultChain(region(endpoint), endpoint, forcePathStyle);
    }

    private static String region(URI endpoint) {
        try {
            return new DefaultAwsRegionProviderChain().getRegion().id();
        } catch (SdkClientException e) {
            if (endpoint != null) {
                return AwsProfiles.DEFAULT_REGION_FOR_CUSTOM_ENDPOINTS;
            }
            throw new BackupFailure(BackupFailure.AWS_CREDENTIALS_UNAVAILABLE, "s3.awsSecret is not set and the "
                    + "operator's environment names no AWS region: set AWS_REGION on the operator (chart value "
                    + "extraEnv), or set s3.awsSecret with a region in its 'config' file.", true);
        }
    }
}
