package dev.etcdoperator.restore;

import java.util.Map;
import java.util.TreeMap;

import dev.etcdoperator.core.Digests;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * The Secret {@code <restore>-snapshot} that gives the restored cluster's seed member the backup's URL and
 * checksum. It is this restore's alone: created, never taken over (a Secret of that name that this restore does not
 * own, by uid, is left as it is), and deleted when the restore ends.
 */
final class SnapshotSecrets {
    static final String REASON_TAKEN = "SnapshotSecretInUse";

    /** A Secret of the name exists and is not this restore's. */
    static final class Taken extends RuntimeException {
        Taken(String message) {
            super(message);
        }
    }

    private final KubernetesClient client;

    SnapshotSecrets(KubernetesClient client) {
        this.client = client;
    }

    private static final String SUFFIX = "-snapshot";
    private static final int MAX_NAME = 253;

    /**
     * {@code <restore>-snapshot}; for a restore name too long for that, the name cut, with a digest of the whole name
     * so that two long names that begin alike get Secrets of their own.
     */
    static String name(EtcdRestore restore) {
        String name = restore.getMetadata().getName();
        if (name.length() + SUFFIX.length() <= MAX_NAME) {
            return name + SUFFIX;
        }
        String digest = Digests.shortSha256(name, 4);
        String cut = name.substring(0, MAX_NAME - SUFFIX.length() - digest.length() - 1).replaceAll("[-.]+$", "");
        return cut + "-" + digest + SUFFIX;
    }

    /**
     * Creates the Secret with {@code url} (signed for {@code If-Match: <etag>} when the etag is not null) and the
     * SHA-256 the seed checks its download against (null: the seed checks none, the link serves only the verified
     * object), or writes them into it when it is already this restore's.
     *
     * @throws Taken when a Secret of the name exists that this restore does not own
     */
    void put(EtcdRestore restore, String url, String sha256, String etag) {
        String namespace = restore.getMetadata().getNamespace();
        Secret wanted = new SecretBuilder()
                .withMetadata(new ObjectMetaBuilder().withName(name(restore)).withNamespace(namespace)
                        .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(restore.getApiVersion())
                                .withKind(restore.getKind()).withName(restore.getMetadata().getName())
                                .withUid(restore.getMetadata().getUid()).withController(true).build())
                        .build())
                .withType("Opaque")
                .withStringData(data(url, sha256, etag))
                .build();
        try {
            client.secrets().inNamespace(namespace).resource(wanted).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
            Secret existing = client.secrets().inNamespace(namespace).withName(name(restore)).get();
            if (existing == null) {
                throw e;
            }
            if (!ownedBy(existing, restore)) {
                throw new Taken("a Secret " + name(restore) + " exists in namespace " + namespace + " that this"
                        + " EtcdRestore did not create; it was left as it is. The restore needs that name for the"
                        + " snapshot's URL: rename or delete that Secret, or restore with an EtcdRestore of another"
                        + " name");
            }
            existing.setData(null);
            existing.setStringData(wanted.getStringData());
            client.secrets().inNamespace(namespace).resource(existing).update();
        }
    }

    private static Map<String, String> data(String url, String sha256, String etag) {
        Map<String, String> data = new TreeMap<>();
        data.put(RestoreAnnotations.URL_KEY, url);
        if (sha256 != null) {
            data.put(RestoreAnnotations.SHA256_KEY, sha256);
        }
        if (etag != null) {
            data.put(RestoreAnnotations.ETAG_KEY, etag);
        }
        return data;
    }

    /** No Secret of the restore's name exists. */
    boolean missing(EtcdRestore restore) {
        return client.secrets().inNamespace(restore.getMetadata().getNamespace()).withName(name(restore)).get() == null;
    }

    /** Deletes the Secret when it is this restore's; any other Secret of the name is left alone. */
    void delete(EtcdRestore restore) {
        Secret existing = client.secrets().inNamespace(restore.getMetadata().getNamespace()).withName(name(restore))
                .get();
        if (existing != null && ownedBy(existing, restore)) {
            client.secrets().inNamespace(restore.getMetadata().getNamespace()).withName(name(restore))
                    .lockResourceVersion(existing.getMetadata().getResourceVersion()).delete();
        }
    }

    static boolean ownedBy(Secret secret, EtcdRestore restore) {
        return secret.getMetadata().getOwnerReferences() != null && secret.getMetadata().getOwnerReferences().stream()
                .anyMatch(o -> restore.getKind().equals(o.getKind()) && restore.getMetadata().getUid() != null
                        && restore.getMetadata().getUid().equals(o.getUid()));
    }
}
