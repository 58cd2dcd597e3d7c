package dev.etcdoperator.sandbox.support;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.sandbox.controlplane.Parts;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.client.utils.Serialization;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/** What the backup and restore benchmarks share: a cluster big enough, data to fill it, a plain multipart upload. */
public final class BenchmarkData {
    private BenchmarkData() {
    }

    /** The etcd release of the benchmarks' clusters; their by-hand baselines run the same release's tools. */
    public static final String VERSION = "3.6.16";

    /** The directory of that release's etcd, etcdctl and etcdutl. */
    public static Path bin() {
        return Parts.bin(Parts.ETCD_36);
    }

    /** A 1-member cluster of {@link #VERSION} whose quota (8 GiB) lets it hold a database of several GB. */
    public static EtcdCluster largeQuotaCluster(String name, String namespace) {
        return Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: %s, namespace: %s}
                spec:
                  size: 1
                  version: %s
                  pod:
                    etcdEnv:
                    - {name: ETCD_QUOTA_BACKEND_BYTES, value: "8589934592"}
                """.formatted(name, namespace, VERSION), EtcdCluster.class);
    }

    /** Puts values of 1 MiB (random, told apart by their first two bytes) at keys v-{from}..v-{to - 1}, 8 in flight. */
    public static void fill(String endpoint, int from, int to) throws Exception {
        byte[] value = new byte[1024 * 1024];
        new Random(7).nextBytes(value);
        Semaphore inFlight = new Semaphore(8);
        List<CompletableFuture<?>> puts = new ArrayList<>();
        try (Client client = Client.builder().endpoints(endpoint).build()) {
            for (int i = from; i < to; i++) {
                inFlight.acquire();
                value[0] = (byte) i;
                value[1] = (byte) (i >> 8);
                puts.add(client.getKVClient().put(ByteSequence.from("v-%05d".formatted(i), StandardCharsets.UTF_8),
                        ByteSequence.from(value)).whenComplete((r, e) -> inFlight.release()));
            }
            CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).get(10, TimeUnit.MINUTES);
        }
    }

    /**
     * A plain multipart upload of the file, one part at a time, with the client's defaults; returns the seconds
     * its CompleteMultipartUpload took.
     */
    public static double rawMultipart(S3Client s3, String bucket, String key, Path file, int partSize) throws IOException {
        String id = s3.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
        List<CompletedPart> parts = new ArrayList<>();
        byte[] buffer = new byte[partSize];
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            for (int number = 1; ; number++) {
                int length = 0;
                for (int n; length < partSize && (n = in.read(buffer, length, partSize - length)) > 0; ) {
                    length += n;
                }
                if (length == 0) {
                    break;
                }
                int partNumber = number;
                int partLength = length;
                String eTag = s3.uploadPart(b -> b.bucket(bucket).key(key).uploadId(id).partNumber(partNumber)
                        .contentLength((long) partLength), RequestBody.fromContentProvider(
                        () -> new ByteArrayInputStream(buffer, 0, partLength), partLength,
                        "application/octet-stream")).eTag();
                parts.add(CompletedPart.builder().partNumber(partNumber).eTag(eTag).build());
            }
        }
        long t0 = System.nanoTime();
        s3.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(id).multipartUpload(m -> m.parts(parts)));
        return (System.nanoTime() - t0) / 1e9;
    }

    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
