package dev.etcdoperator.sandbox.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import dev.etcdoperator.core.backup.S3Location;
import dev.etcdoperator.sandbox.support.ListeningSockets;
import dev.etcdoperator.storage.BackupStore;
import dev.etcdoperator.storage.ObjectVersion;
import dev.etcdoperator.storage.S3Settings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The sandbox's S3 server (MinIO in its own process) spoken to with the AWS SDK v2 as the operator speaks to it:
 * path-style, endpoint override, static credentials, default checksums; and with wrong credentials, none, and
 * presigned URLs, which MinIO itself refuses as S3 does.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class S3ServerIT {
    private static final String BUCKET = "etcd-backups";
    private static final int MIB = 1024 * 1024;

    static S3Server server;
    static S3Client s3;

    @BeforeAll
    static void start() throws IOException {
        Path dir = Path.of("target", "s3-it");
        deleteRecursively(dir);
        // an address of its own, not 127.0.0.1, so that the binding is seen to follow the setting
        String address = "127." + ThreadLocalRandom.current().nextInt(10, 250) + ".0.1";
        server = S3Server.start(S3Server.Settings.in(dir).withAddress(address)
                .withBuckets(BUCKET, "second-bucket"));
        System.out.printf("S3 server (pid %d) answered on %s after %d ms%n", server.pid(), server.endpoint(),
                server.lastStartup().toMillis());
        s3 = server.client();
    }

    @AfterAll
    static void stop() {
        if (s3 != null) {
            s3.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    @Order(1)
    void listensOnLoopbackOnlyOnItsPort() {
        List<ListeningSockets.Listener> listeners = ListeningSockets.of(server.pid());

        // MinIO listens on the address it is given and, on the same port, on the host's own loopback interface
        // addresses (it always adds them, for its console); the console itself is off, so no other port
        assertThat(listeners).as("listening sockets of pid %d", server.pid())
                .extracting(ListeningSockets.Listener::toString)
                .contains(server.address() + ":" + server.port());
        assertThat(listeners).isNotEmpty().allSatisfy(l -> {
            assertThat(l.address().isLoopbackAddress()).as("%s is loopback", l).isTrue();
            assertThat(l.port()).isEqualTo(server.port());
            assertThat(l.address().getHostAddress()).isIn(server.address(), "127.0.0.1", "0:0:0:0:0:0:0:1");
        });
        assertThat(listeners).noneMatch(ListeningSockets.Listener::onEveryInterface);
    }

    @Test
    @Order(2)
    void theInitialBucketsExist() {
        assertThat(server.endpoint()).isEqualTo("http://" + server.address() + ":" + server.port());
        s3.headBucket(b -> b.bucket(BUCKET));
        assertThat(s3.listBuckets().buckets()).extracting(b -> b.name()).contains(BUCKET, "second-bucket");
        assertThatThrownBy(() -> s3.headBucket(b -> b.bucket("no-such-bucket")))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(404));
    }

    @Test
    @Order(2)
    void aMissingBucketIsNoSuchBucket() {
        assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket("no-such-bucket").key("k")))
                .isInstanceOfSatisfying(S3Exception.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(404);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchBucket");
                });
        assertThatThrownBy(() -> s3.putObject(b -> b.bucket("no-such-bucket").key("k"),
                RequestBody.fromString("x", StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(404));
        assertThatThrownBy(() -> s3.createMultipartUpload(b -> b.bucket("no-such-bucket").key("k")))
                .isInstanceOfSatisfying(S3Exception.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchBucket"));
        assertThatThrownBy(() -> s3.listObjectsV2(b -> b.bucket("no-such-bucket")))
                .isInstanceOf(NoSuchBucketException.class);
    }

    @Test
    @Order(3)
    void putThenGet() {
        s3.putObject(b -> b.bucket(BUCKET).key("plain/hello.txt").contentType("text/plain"),
                RequestBody.fromString("hello, S3", StandardCharsets.UTF_8));

        ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("plain/hello.txt"));

        assertThat(got.asUtf8String()).isEqualTo("hello, S3");
        assertThat(got.response().contentLength()).isEqualTo(9L);
        assertThat(got.response().contentType()).startsWith("text/plain");
        // a single PUT's ETag is the MD5 of the content, quoted
        assertThat(got.response().eTag()).isEqualTo("\"" + hex("MD5", "hello, S3".getBytes(StandardCharsets.UTF_8))
                + "\"");
    }

    @Test
    @Order(4)
    void aMultipartUploadOfSeveralPartsComesBackByteForByte() {
        // 5 MiB is S3's minimum for every part but the last
        byte[] content = randomBytes(3 * 5 * MIB + 123_457, 1);
        String key = "multipart/snapshot.db";

        List<CompletedPart> parts = uploadParts(key, content, 5 * MIB);

        assertThat(parts).hasSize(4);
        ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key));
        assertThat(got.response().contentLength()).isEqualTo(content.length);
        assertThat(hex("SHA-256", got.asByteArray())).isEqualTo(hex("SHA-256", content));
        // a multipart ETag is "<md5 of the parts' md5s>-<number of parts>"
        assertThat(got.response().eTag()).endsWith("-4\"");
    }

    @Test
    @Order(4)
    void aPartSmallerThan5MibThatIsNotTheLastIsRefusedOnCompletion() {
        String key = "multipart/too-small.db";
        String uploadId = s3.createMultipartUpload(b -> b.bucket(BUCKET).key(key)).uploadId();
        List<CompletedPart> parts = new ArrayList<>();
        for (int number = 1; number <= 2; number++) {
            int partNumber = number;
            String eTag = s3.uploadPart(b -> b.bucket(BUCKET).key(key).uploadId(uploadId).partNumber(partNumber),
                    RequestBody.fromBytes(randomBytes(MIB, partNumber))).eTag();
            parts.add(CompletedPart.builder().partNumber(partNumber).eTag(eTag).build());
        }

        assertThatThrownBy(() -> s3.completeMultipartUpload(b -> b.bucket(BUCKET).key(key).uploadId(uploadId)
                .multipartUpload(CompletedMultipartUpload.builder().parts(parts).build())))
                .isInstanceOfSatisfying(S3Exception.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("EntityTooSmall"));
        s3.abortMultipartUpload(b -> b.bucket(BUCKET).key(key).uploadId(uploadId));
    }

    @Test
    @Order(4)
    void aSinglePutOfSeveralMibGoesThrough() {
        byte[] content = randomBytes(12 * MIB, 6);
        s3.putObject(b -> b.bucket(BUCKET).key("plain/large.bin"), RequestBody.fromBytes(content));

        assertThat(hex("SHA-256", s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("plain/large.bin")).asByteArray()))
                .isEqualTo(hex("SHA-256", content));
    }

    @Test
    @Order(5)
    void anUnknownAccessKeyIdIsRefusedWithInvalidAccessKeyId() {
        try (S3Client wrong = server.client("nobody", S3Server.SECRET_KEY)) {
            assertThatThrownBy(() -> wrong.getObjectAsBytes(b -> b.bucket(BUCKET).key("plain/hello.txt")))
                    .isInstanceOfSatisfying(S3Exception.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(403);
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidAccessKeyId");
                    });
            assertThatThrownBy(() -> wrong.listObjectsV2(b -> b.bucket(BUCKET)))
                    .isInstanceOfSatisfying(S3Exception.class,
                            e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidAccessKeyId"));
            // HEAD answers carry no body, so no code: the status says it
            assertThatThrownBy(() -> wrong.headBucket(b -> b.bucket(BUCKET)))
                    .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
            // an upload is refused before its body is sent: the SDK asks for 100 Continue and gets 403 at once, as
            // from S3; Java 17's HttpURLConnection then drops the answer's body, so only the status is left
            assertThatThrownBy(() -> wrong.putObject(b -> b.bucket(BUCKET).key("refused/put.bin"),
                    RequestBody.fromBytes(randomBytes(2 * MIB, 7))))
                    .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
        }
        assertThat(keys("refused/")).isEmpty();
    }

    @Test
    @Order(5)
    void aWrongSecretKeyIsRefusedWithSignatureDoesNotMatch() {
        try (S3Client wrong = server.client(S3Server.ACCESS_KEY, "not-the-secret")) {
            assertThatThrownBy(() -> wrong.getObjectAsBytes(b -> b.bucket(BUCKET).key("plain/hello.txt")))
                    .isInstanceOfSatisfying(S3Exception.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(403);
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("SignatureDoesNotMatch");
                    });
            assertThatThrownBy(() -> wrong.putObject(b -> b.bucket(BUCKET).key("refused/put.bin"),
                    RequestBody.fromBytes(randomBytes(2 * MIB, 7))))
                    .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
            assertThatThrownBy(() -> wrong.createMultipartUpload(b -> b.bucket(BUCKET).key("refused/mp.bin")))
                    .isInstanceOfSatisfying(S3Exception.class,
                            e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("SignatureDoesNotMatch"));
        }
        assertThat(keys("refused/")).isEmpty();
        assertThat(s3.listMultipartUploads(b -> b.bucket(BUCKET).prefix("refused/")).uploads()).isEmpty();
    }

    @Test
    @Order(5)
    void aRequestWithoutCredentialsIsRefusedWithAccessDenied() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> get = http.send(HttpRequest.newBuilder(URI.create(server.endpoint() + "/" + BUCKET
                + "/plain/hello.txt")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).isEqualTo(403);
        assertThat(get.headers().firstValue("content-type")).contains("application/xml");
        assertThat(get.body()).contains("<Code>AccessDenied</Code>");

        // a body sent anyway changes nothing
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(URI.create(server.endpoint() + "/" + BUCKET
                        + "/refused/anonymous")).PUT(HttpRequest.BodyPublishers.ofByteArray(randomBytes(MIB, 8)))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).isEqualTo(403);
        assertThat(put.body()).contains("<Code>AccessDenied</Code>");
        assertThat(keys("refused/")).isEmpty();
    }

    @Test
    @Order(5)
    void aPresignedGetWorksFromWgetAndAnyHttpClient() throws Exception {
        try (S3Presigner presigner = presigner(S3Server.SECRET_KEY)) {
            URL url = presigner.presignGetObject(b -> b.signatureDuration(Duration.ofMinutes(5))
                    .getObjectRequest(g -> g.bucket(BUCKET).key("plain/hello.txt"))).url();

            HttpResponse<String> got = HttpClient.newHttpClient().send(HttpRequest.newBuilder(url.toURI()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(got.statusCode()).isEqualTo(200);
            assertThat(got.body()).isEqualTo("hello, S3");

            Path file = Files.createTempFile(Path.of("target"), "presigned", ".txt");
            try {
                Process wget = new ProcessBuilder("wget", "-q", "-O", file.toString(), url.toString())
                        .redirectErrorStream(true).start();
                assertThat(wget.waitFor(60, TimeUnit.SECONDS)).isTrue();
                assertThat(wget.exitValue()).as(new String(wget.getInputStream().readAllBytes(),
                        StandardCharsets.UTF_8)).isZero();
                assertThat(Files.readString(file)).isEqualTo("hello, S3");
            } finally {
                Files.deleteIfExists(file);
            }

            // changing what was signed breaks the signature
            URI otherKey = URI.create(url.toString().replace("plain/hello.txt", "plain/large.bin"));
            HttpResponse<String> tampered = HttpClient.newHttpClient().send(HttpRequest.newBuilder(otherKey).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(tampered.statusCode()).isEqualTo(403);
            assertThat(tampered.body()).contains("<Code>SignatureDoesNotMatch</Code>");
        }
        try (S3Presigner wrongSecret = presigner("not-the-secret")) {
            URL url = wrongSecret.presignGetObject(b -> b.signatureDuration(Duration.ofMinutes(5))
                    .getObjectRequest(g -> g.bucket(BUCKET).key("plain/hello.txt"))).url();
            HttpResponse<String> refused = HttpClient.newHttpClient().send(HttpRequest.newBuilder(url.toURI())
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).isEqualTo(403);
            assertThat(refused.body()).contains("<Code>SignatureDoesNotMatch</Code>");
        }
    }

    /**
     * The restore's seed skips its own SHA-256 only where the store refuses a presigned link's If-Match for another
     * ETag: MinIO does, so the operator's probe says yes; the link made for the object serves it, and once the key
     * holds another object the same link is refused.
     */
    @Test
    @Order(5)
    void aPresignedLinkSignedForAnETagServesThatObjectOnlyAndTheOperatorsProbeSeesIt() throws Exception {
        S3Location location = new S3Location(BUCKET, "plain/bound.txt");
        try (S3Client s3 = server.client()) {
            s3.putObject(b -> b.bucket(BUCKET).key(location.key()), RequestBody.fromString("first", StandardCharsets.UTF_8));
            HeadObjectResponse head = s3.headObject(b -> b.bucket(BUCKET).key(location.key()));
            ObjectVersion object = new ObjectVersion(head.eTag(), null);
            S3Settings settings = new S3Settings(S3Server.ACCESS_KEY, S3Server.SECRET_KEY, null, S3Server.REGION,
                    URI.create(server.endpoint()), true);
            BackupStore store = new BackupStore(s3, settings, 8 * 1024 * 1024, 2);

            assertThat(store.linkRefusesOtherObjects(location, object)).isTrue();

            URI link = URI.create(store.presignedGet(location, object, Duration.ofMinutes(5)));
            HttpResponse<String> got = HttpClient.newHttpClient().send(HttpRequest.newBuilder(link)
                    .header("If-Match", object.etag()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(got.statusCode()).isEqualTo(200);
            assertThat(got.body()).isEqualTo("first");

            s3.putObject(b -> b.bucket(BUCKET).key(location.key()), RequestBody.fromString("second", StandardCharsets.UTF_8));
            HttpResponse<String> replaced = HttpClient.newHttpClient().send(HttpRequest.newBuilder(link)
                    .header("If-Match", object.etag()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(replaced.statusCode()).isEqualTo(412);
        }
    }

    @Test
    @Order(5)
    void userMetadataRoundTrips() {
        s3.putObject(b -> b.bucket(BUCKET).key("meta/snapshot.db")
                        .metadata(Map.of("etcd-revision", "1234", "cluster", "default/example",
                                "Snapshot-Name", "Mixed-Case")),
                RequestBody.fromString("snapshot", StandardCharsets.UTF_8));

        HeadObjectResponse head = s3.headObject(b -> b.bucket(BUCKET).key("meta/snapshot.db"));
        GetObjectResponse get = s3.getObject(b -> b.bucket(BUCKET).key("meta/snapshot.db"),
                (response, in) -> response);

        System.out.println("user metadata as HeadObject returns it: " + head.metadata());
        assertThat(head.metadata()).containsEntry("etcd-revision", "1234")
                .containsEntry("cluster", "default/example");
        // header names are case-insensitive: look such keys up ignoring case (AWS gives them in lower case)
        assertThat(head.metadata()).anySatisfy((name, value) -> {
            assertThat(name).isEqualToIgnoringCase("snapshot-name");
            assertThat(value).isEqualTo("Mixed-Case");
        });
        assertThat(get.metadata()).isEqualTo(head.metadata());
        assertThat(head.contentLength()).isEqualTo(8L);
    }

    @Test
    @Order(5)
    void aCopyReplacesOrKeepsTheMetadataAsItsDirectiveSays() {
        s3.putObject(b -> b.bucket(BUCKET).key("copy/source").metadata(Map.of("first", "1")),
                RequestBody.fromString("copied", StandardCharsets.UTF_8));

        s3.copyObject(b -> b.sourceBucket(BUCKET).sourceKey("copy/source").destinationBucket(BUCKET)
                .destinationKey("copy/replaced").metadataDirective(MetadataDirective.REPLACE)
                .metadata(Map.of("second", "2")).contentType("application/octet-stream"));
        s3.copyObject(b -> b.sourceBucket(BUCKET).sourceKey("copy/source").destinationBucket(BUCKET)
                .destinationKey("copy/kept"));

        HeadObjectResponse replaced = s3.headObject(b -> b.bucket(BUCKET).key("copy/replaced"));
        assertThat(lowerCaseKeys(replaced.metadata())).containsExactly(Map.entry("second", "2"));
        assertThat(replaced.contentType()).isEqualTo("application/octet-stream");
        assertThat(lowerCaseKeys(s3.headObject(b -> b.bucket(BUCKET).key("copy/kept")).metadata()))
                .containsExactly(Map.entry("first", "1"));
        assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("copy/replaced")).asUtf8String())
                .isEqualTo("copied");
    }

    @Test
    @Order(5)
    void partsSentWithTheirCrc32cAreCheckedAndTheCompletionReportsTheCompositeChecksum() {
        String key = "checksums/snapshot.db";
        // as the operator sends parts: plain bodies, their CRC32C in a header (with the SDK's default aws-chunked
        // bodies over plain HTTP, the SDK sends a given CRC32C both as a header and as a trailer, and MinIO refuses
        // the part with XAmzContentChecksumMismatch)
        try (S3Client s3 = plainBodies()) {
            uploadWithCrc32c(s3, key);
        }
    }

    private static void uploadWithCrc32c(S3Client s3, String key) {
        String uploadId = s3.createMultipartUpload(b -> b.bucket(BUCKET).key(key)
                .checksumAlgorithm(ChecksumAlgorithm.CRC32_C)).uploadId();
        List<CompletedPart> parts = new ArrayList<>();
        List<byte[]> crcs = new ArrayList<>();
        for (int number = 1; number <= 3; number++) {
            byte[] part = randomBytes(number < 3 ? 5 * MIB : 1234, 20 + number);
            byte[] crc = crc32c(part);
            crcs.add(crc);
            String checksum = Base64.getEncoder().encodeToString(crc);
            int partNumber = number;
            String eTag = s3.uploadPart(b -> b.bucket(BUCKET).key(key).uploadId(uploadId).partNumber(partNumber)
                    .checksumAlgorithm(ChecksumAlgorithm.CRC32_C).checksumCRC32C(checksum),
                    RequestBody.fromBytes(part)).eTag();
            parts.add(CompletedPart.builder().partNumber(partNumber).eTag(eTag).checksumCRC32C(checksum).build());
        }
        // a part whose stated CRC32C is not its content's is refused
        byte[] wrong = randomBytes(MIB, 30);
        String wrongChecksum = Base64.getEncoder().encodeToString(crc32c(randomBytes(MIB, 31)));
        assertThatThrownBy(() -> s3.uploadPart(b -> b.bucket(BUCKET).key(key).uploadId(uploadId).partNumber(4)
                .checksumAlgorithm(ChecksumAlgorithm.CRC32_C).checksumCRC32C(wrongChecksum),
                RequestBody.fromBytes(wrong)))
                .isInstanceOfSatisfying(S3Exception.class, e -> {
                    System.out.println("a part with a wrong CRC32C: " + e.statusCode() + " "
                            + e.awsErrorDetails().errorCode());
                    assertThat(e.statusCode()).isEqualTo(400);
                });

        CompleteMultipartUploadResponse done = s3.completeMultipartUpload(b -> b.bucket(BUCKET).key(key)
                .uploadId(uploadId).multipartUpload(CompletedMultipartUpload.builder().parts(parts).build()));

        // S3's composite: the CRC32C of the parts' CRC32Cs (big-endian bytes), then "-" and the number of parts
        CRC32C ofCrcs = new CRC32C();
        crcs.forEach(ofCrcs::update);
        long v = ofCrcs.getValue();
        String composite = Base64.getEncoder().encodeToString(new byte[] {(byte) (v >>> 24), (byte) (v >>> 16),
                (byte) (v >>> 8), (byte) v}) + "-3";
        System.out.println("CompleteMultipartUpload: checksumCRC32C=" + done.checksumCRC32C() + ", checksumType="
                + done.checksumTypeAsString() + ", expected composite " + composite);
        assertThat(done.checksumCRC32C()).isEqualTo(composite);
        HeadObjectResponse head = s3.headObject(b -> b.bucket(BUCKET).key(key).checksumMode(ChecksumMode.ENABLED));
        assertThat(head.checksumCRC32C()).isEqualTo(composite);
    }

    @Test
    @Order(6)
    void anAbortedMultipartUploadLeavesNoObject() {
        String key = "aborted/snapshot.db";
        String uploadId = s3.createMultipartUpload(b -> b.bucket(BUCKET).key(key)).uploadId();
        s3.uploadPart(b -> b.bucket(BUCKET).key(key).uploadId(uploadId).partNumber(1),
                RequestBody.fromBytes(randomBytes(5 * MIB, 2)));
        assertThat(s3.listMultipartUploads(b -> b.bucket(BUCKET)).uploads())
                .extracting(u -> u.uploadId()).contains(uploadId);

        s3.abortMultipartUpload(b -> b.bucket(BUCKET).key(key).uploadId(uploadId));

        assertThat(s3.listMultipartUploads(b -> b.bucket(BUCKET)).uploads())
                .extracting(u -> u.uploadId()).doesNotContain(uploadId);
        assertThatThrownBy(() -> s3.headObject(b -> b.bucket(BUCKET).key(key))).isInstanceOf(SdkException.class);
        assertThatThrownBy(() -> s3.getObject(b -> b.bucket(BUCKET).key(key)))
                .isInstanceOf(NoSuchKeyException.class);
        assertThat(keys("aborted/")).isEmpty();
    }

    @Test
    @Order(7)
    void listingWithAPrefixThenDeleting() {
        for (String key : List.of("list/a/1", "list/a/2", "list/b/1", "listing-not-this")) {
            s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromString(key, StandardCharsets.UTF_8));
        }

        assertThat(keys("list/a/")).containsExactly("list/a/1", "list/a/2");
        assertThat(keys("list/")).containsExactly("list/a/1", "list/a/2", "list/b/1");

        s3.deleteObject(b -> b.bucket(BUCKET).key("list/a/1"));

        assertThat(keys("list/")).containsExactly("list/a/2", "list/b/1");
        assertThatThrownBy(() -> s3.getObject(b -> b.bucket(BUCKET).key("list/a/1")))
                .isInstanceOf(NoSuchKeyException.class);
    }

    @Test
    @Order(8)
    void killedInTheMiddleOfAMultipartUploadTheCallFailsAndTheRestartedServerServesTheOldData() {
        String key = "killed/snapshot.db";
        String uploadId = s3.createMultipartUpload(b -> b.bucket(BUCKET).key(key)).uploadId();
        s3.uploadPart(b -> b.bucket(BUCKET).key(key).uploadId(uploadId).partNumber(1),
                RequestBody.fromBytes(randomBytes(5 * MIB, 3)));
        long killedPid = server.pid();

        // the server dies while the second part is on its way: the body kills it after its first MiB
        byte[] part2 = randomBytes(5 * MIB, 4);
        InputStream killingBody = new KillingInputStream(part2, MIB, server::kill);
        assertThatThrownBy(() -> s3.uploadPart(b -> b.bucket(BUCKET).key(key).uploadId(uploadId).partNumber(2),
                RequestBody.fromInputStream(killingBody, part2.length)))
                .isInstanceOf(SdkException.class)
                .satisfies(e -> System.out.println("the upload of part 2 failed with: " + e));
        assertThat(server.alive()).isFalse();
        assertThat(ProcessHandle.of(killedPid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        // the endpoint refuses connections, as a dead server's would
        assertThatThrownBy(() -> s3.headBucket(b -> b.bucket(BUCKET))).isInstanceOf(SdkClientException.class)
                .satisfies(e -> assertThat(e).hasRootCauseInstanceOf(ConnectException.class));

        server.start();

        System.out.printf("S3 server restarted (pid %d) after %d ms%n", server.pid(),
                server.lastStartup().toMillis());
        assertThat(server.pid()).isNotEqualTo(killedPid);
        assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("plain/hello.txt")).asUtf8String())
                .isEqualTo("hello, S3");
        assertThat(hex("SHA-256", s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("multipart/snapshot.db"))
                .asByteArray())).isEqualTo(hex("SHA-256", randomBytes(3 * 5 * MIB + 123_457, 1)));
        assertThat(s3.headObject(b -> b.bucket(BUCKET).key("meta/snapshot.db")).metadata())
                .containsEntry("etcd-revision", "1234");
        assertThat(keys("killed/")).as("the interrupted upload was never completed").isEmpty();
        // the unfinished upload survives the crash, as on AWS, until it is aborted. MinIO lists uploads by exact
        // key only: a prefix is taken as the whole key, and no prefix lists only those begun since it started
        assertThat(s3.listMultipartUploads(b -> b.bucket(BUCKET).prefix(key)).uploads())
                .extracting(u -> u.uploadId()).containsExactly(uploadId);
        assertThat(s3.listMultipartUploads(b -> b.bucket(BUCKET).prefix("killed/")).uploads()).isEmpty();
        assertThat(s3.listMultipartUploads(b -> b.bucket(BUCKET)).uploads()).isEmpty();
        s3.abortMultipartUpload(b -> b.bucket(BUCKET).key(key).uploadId(uploadId));
        // a new upload to the same key succeeds on the restarted server
        byte[] again = randomBytes(6 * MIB, 5);
        uploadParts(key, again, 5 * MIB);
        assertThat(hex("SHA-256", s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asByteArray()))
                .isEqualTo(hex("SHA-256", again));
        assertThat(ListeningSockets.of(server.pid())).extracting(ListeningSockets.Listener::toString)
                .contains(server.address() + ":" + server.port());
    }

    @Test
    @Order(9)
    void closeStopsTheProcess() {
        long pid = server.pid();

        server.close();

        assertThat(server.alive()).isFalse();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThatThrownBy(() -> s3.headBucket(b -> b.bucket(BUCKET))).isInstanceOf(SdkClientException.class)
                .satisfies(e -> assertThat(e).hasRootCauseInstanceOf(ConnectException.class));
        server.close(); // idempotent
    }

    private static S3Client plainBodies() {
        return S3Client.builder().endpointOverride(URI.create(server.endpoint())).forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(S3Server.ACCESS_KEY,
                        S3Server.SECRET_KEY)))
                .httpClient(UrlConnectionHttpClient.create())
                .serviceConfiguration(c -> c.chunkedEncodingEnabled(false)).build();
    }

    private static S3Presigner presigner(String secretKey) {
        return S3Presigner.builder().endpointOverride(URI.create(server.endpoint())).region(Region.US_EAST_1)
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(S3Server.ACCESS_KEY,
                        secretKey)))
                .build();
    }

    private static Map<String, String> lowerCaseKeys(Map<String, String> metadata) {
        Map<String, String> lower = new java.util.HashMap<>();
        metadata.forEach((k, v) -> lower.put(k.toLowerCase(java.util.Locale.ROOT), v));
        return lower;
    }

    private static byte[] crc32c(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        long v = crc.getValue();
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    private static List<CompletedPart> uploadParts(String key, byte[] content, int partSize) {
        String uploadId = s3.createMultipartUpload(b -> b.bucket(BUCKET).key(key)).uploadId();
        List<CompletedPart> parts = new ArrayList<>();
        for (int offset = 0, number = 1; offset < content.length; offset += partSize, number++) {
            int length = Math.min(partSize, content.length - offset);
            int partNumber = number;
            String eTag = s3.uploadPart(b -> b.bucket(BUCKET).key(key).uploadId(uploadId).partNumber(partNumber),
                    RequestBody.fromBytes(Arrays.copyOfRange(content, offset, offset + length))).eTag();
            parts.add(CompletedPart.builder().partNumber(partNumber).eTag(eTag).build());
        }
        s3.completeMultipartUpload(b -> b.bucket(BUCKET).key(key).uploadId(uploadId)
                .multipartUpload(CompletedMultipartUpload.builder().parts(parts).build()));
        return parts;
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    private static List<String> keys(String prefix) {
        return s3.listObjectsV2Paginator(b -> b.bucket(BUCKET).prefix(prefix)).contents().stream()
                .map(S3Object::key).toList();
    }

    private static byte[] randomBytes(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static String hex(String algorithm, byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A request body that runs an action once a given number of its bytes have been read. */
    private static final class KillingInputStream extends InputStream {
        private final byte[] bytes;
        private final int killAfter;
        private final Runnable action;
        private int position;
        private int mark;
        private boolean done;

        KillingInputStream(byte[] bytes, int killAfter, Runnable action) {
            this.bytes = bytes;
            this.killAfter = killAfter;
            this.action = action;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            if (position >= killAfter && !done) {
                done = true;
                action.run();
            }
            if (position >= bytes.length) {
                return -1;
            }
            int n = Math.min(length, bytes.length - position);
            if (!done) {
                n = Math.min(n, killAfter - position);
            }
            System.arraycopy(bytes, position, buffer, offset, n);
            position += n;
            return n;
        }

        // resettable, so that the SDK retries (against a dead server) instead of giving up on the body
        @Override
        public boolean markSupported() {
            return true;
        }

        @Override
        public synchronized void mark(int readLimit) {
            mark = position;
        }

        @Override
        public synchronized void reset() {
            position = mark;
        }

        @Override
        public void close() throws IOException {
            // the SDK may close it; the bytes stay readable for a retry
        }
    }
}
