package dev.etcdoperator.storage;

import java.net.URI;

import dev.etcdoperator.api.v1beta2.S3ClientSideEncryption;
import dev.etcdoperator.api.v1beta2.S3ServerSideEncryption;
import dev.etcdoperator.api.v1beta2.S3Source;
import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.support.SecretData;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Reads the AWS Secret that an {@code s3} section names (files {@code credentials} and {@code config}); without
 * one, the operator's own credentials (see {@link DefaultChainCredentials}).
 */
public final class S3Credentials {
    public static final String CREDENTIALS = "credentials";
    public static final String CONFIG = "config";

    private S3Credentials() {
    }

    public static S3Settings settings(KubernetesClient client, String namespace, S3Source source) {
        return reach(client, namespace, source).withEncryption(encryption(source))
                .withClientKey(clientKey(client, namespace, source));
    }

    /** The key {@code s3.clientSideEncryption} names, read from its Secret; null when none is named. */
    static BackupKey clientKey(KubernetesClient client, String namespace, S3Source source) {
        S3ClientSideEncryption cse = source.getClientSideEncryption();
        if (cse == null) {
            return null;
        }
        String entry = cse.getKey() == null || cse.getKey().isBlank() ? S3ClientSideEncryption.DEFAULT_KEY
                : cse.getKey().strip();
        String where = namespace + "/" + cse.getSecretName();
        Secret secret = client.secrets().inNamespace(namespace).withName(cse.getSecretName()).get();
        if (secret == null) {
            throw new BackupFailure(BackupFailure.ENCRYPTION_KEY_NOT_FOUND, "Secret " + where
                    + " (s3.clientSideEncryption.secretName) does not exist; it must hold the 32-byte key in '" + entry
                    + "' (for example: openssl rand -base64 32 > key; kubectl create secret generic "
                    + cse.getSecretName() + " --from-file=" + entry + "=key)", true);
        }
        return BackupKey.of(SecretData.value(secret, entry), where + "[" + entry + "]");
    }

    /** The server-side encryption {@code s3.serverSideEncryption} asks for. */
    static ServerSideEncryption encryption(S3Source source) {
        S3ServerSideEncryption sse = source.getServerSideEncryption();
        if (sse == null) {
            return ServerSideEncryption.NONE;
        }
        String key = sse.getKmsKeyId();
        return new ServerSideEncryption(sse.getAlgorithm(), key == null || key.isBlank() ? null : key.strip());
    }

    private static S3Settings reach(KubernetesClient client, String namespace, S3Source source) {
        if (source.getAwsSecret() == null || source.getAwsSecret().isBlank()) {
            String endpoint = source.getEndpoint();
            return DefaultChainCredentials.settings(endpoint == null || endpoint.isBlank() ? null
                    : URI.create(endpoint.strip()), Boolean.TRUE.equals(source.getForcePathStyle()));
        }
        Secret secret = client.secrets().inNamespace(namespace).withName(source.getAwsSecret()).get();
        if (secret == null) {
            throw new BackupFailure(BackupFailure.AWS_SECRET_NOT_FOUND, "Secret " + namespace + "/"
                    + source.getAwsSecret() + " (s3.awsSecret) does not exist; it must hold the files '"
                    + CREDENTIALS + "' and '" + CONFIG + "' of AWS profile [default]", true);
        }
        return AwsProfiles.settings(SecretData.value(secret, CREDENTIALS), SecretData.value(secret, CONFIG),
                namespace + "/" + source.getAwsSecret(), source.getEndpoint(), Boolean.TRUE.equals(source.getForcePathStyle()));
    }
}
