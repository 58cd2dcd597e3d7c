package dev.etcdoperator.storage;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import dev.etcdoperator.core.backup.S3Location;

/** Builds S3 clients from {@link S3Settings}; whoever asks for one closes it. */
public final class S3Clients {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /**
     * How long one response may keep us waiting. Generous: a store may take a minute to answer the completion of
     * a large multipart upload or a server-side copy. Every request also carries its own overall time limit.
     */
    private static final Duration SOCKET_TIMEOUT = Duration.ofMinutes(10);

    private S3Clients() {
    }

    public static S3Client create(S3Settings settings) {
        S3ClientBuilder builder = S3Client.builder()
                .httpClientBuilder(UrlConnectionHttpClient.builder()
                        .connectionTimeout(CONNECT_TIMEOUT)
                        .socketTimeout(SOCKET_TIMEOUT))
                .region(Region.of(settings.region()))
                .credentialsProvider(credentials(settings))
                .forcePathStyle(settings.forcePathStyle())
                // parts go as plain bodies with their length and CRC32C in headers: over plain HTTP the SDK would
                // otherwise send aws-chunked bodies, a signature per 128 KiB chunk, that the store has to decode
                .serviceConfiguration(c -> c.chunkedEncodingEnabled(false));
        if (settings.endpoint() != null) {
            builder.endpointOverride(settings.endpoint());
        }
        return builder.build();
    }

    /**
     * A URL that lets whoever holds it GET {@code object} until it expires, without credentials of their own: its
     * version when it has a version id, and only while its ETag is the same (the request must send
     * {@code If-Match: <etag>}, a signed header).
     */
    public static String presignedGet(S3Settings settings, S3Location location, ObjectVersion object,
            Duration validFor) {
        S3Presigner.Builder builder = S3Presigner.builder()
                .region(Region.of(settings.region()))
                .credentialsProvider(credentials(settings))
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(settings.forcePathStyle()).build());
        if (settings.endpoint() != null) {
            builder.endpointOverride(settings.endpoint());
        }
        try (S3Presigner presigner = builder.build()) {
            return presigner.presignGetObject(r -> r.signatureDuration(validFor)
                    .getObjectRequest(g -> g.bucket(location.bucket()).key(location.key())
                            .versionId(object == null ? null : object.versionId())
                            .ifMatch(object == null ? null : object.etag()))).url().toString();
        }
    }

    /**
     * Why the store does not serve the presigned GET a pod would make for {@code object} (asked for one byte, with its
     * signed {@code If-Match}): a 400, 401 or 403 (a bucket policy against links, a link dated by a clock the store
     * does not accept, a signature it rejects), or a 500 and up (its downloads failing), with the start of its answer.
     * Empty when it serves it, and for any other answer or none within the timeout, which other checks judge (the
     * object gone or changed, the store unreachable).
     */
    public static Optional<BackupStorage.LinkRefusal> presignedGetRefusal(S3Settings settings, S3Location location,
            ObjectVersion object, Duration timeout) {
        return askOneByte(settings, location, object, timeout, Optional.empty(), connection -> {
            int code = connection.getResponseCode();
            if (code != 400 && code != 401 && code != 403 && code < 500) {
                return Optional.empty();
            }
            String answer = "";
            if (connection.getErrorStream() != null) {
                try (var in = connection.getErrorStream()) {
                    answer = new String(in.readNBytes(300), java.nio.charset.StandardCharsets.UTF_8)
                            .replaceAll("\\s+", " ").strip();
                }
            }
            return Optional.of(new BackupStorage.LinkRefusal(code, answer));
        });
    }

    /**
     * Whether the store refuses a presigned GET of {@code object} whose signed {@code If-Match} names another ETag
     * (412 Precondition Failed), as S3 and MinIO do: then a link made by {@link #presignedGet} serves that object or
     * nothing. Asked for one byte; any other answer, or none within the timeout, is a no.
     */
    public static boolean presignedGetRefusesOtherObjects(S3Settings settings, S3Location location,
            ObjectVersion object, Duration timeout) {
        ObjectVersion other = new ObjectVersion("\"not-" + UUID.randomUUID() + "\"", object.versionId());
        return askOneByte(settings, location, other, timeout, false, connection -> connection.getResponseCode() == 412);
    }

    private interface Answer<T> {
        T of(HttpURLConnection connection) throws IOException;
    }

    /**
     * Asks a presigned GET of {@code object} (its ETag in a signed {@code If-Match}) for its first byte and reads the
     * answer with {@code answer}; {@code none} when the store does not answer within the timeout.
     */
    private static <T> T askOneByte(S3Settings settings, S3Location location, ObjectVersion object, Duration timeout,
            T none, Answer<T> answer) {
        String url = presignedGet(settings, location, object, Duration.ofMinutes(5));
        HttpURLConnection connection = null;
        try {
            connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
            connection.setConnectTimeout((int) timeout.toMillis());
            connection.setReadTimeout((int) timeout.toMillis());
            if (object != null && object.etag() != null) {
                connection.setRequestProperty("If-Match", object.etag());
            }
            connection.setRequestProperty("Range", "bytes=0-0");
            return answer.of(connection);
        } catch (IOException | RuntimeException e) {
            return none;
        } finally {
            if (connection != null) {
                // never read on: a store that ignored the headers would be sending the whole object
                connection.disconnect();
            }
        }
    }

    private static AwsCredentialsProvider credentials(S3Settings settings) {
        if (settings.usesDefaultChain()) {
            return DefaultChainCredentials.provider();
        }
        AwsCredentials credentials = settings.sessionToken() == null
                ? AwsBasicCredentials.create(settings.accessKeyId(), settings.secretAccessKey())
                : AwsSessionCredentials.create(settings.accessKeyId(), settings.secretAccessKey(), settings.sessionToken());
        return StaticCredentialsProvider.create(credentials);
    }
}
