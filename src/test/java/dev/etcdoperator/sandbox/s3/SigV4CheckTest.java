package dev.etcdoperator.sandbox.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/** {@link SigV4Check} against requests signed by the AWS SDK's own SigV4 signer, as S3 clients sign them. */
class SigV4CheckTest {
    static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    static final SigV4Check CHECK = new SigV4Check(S3Server.ACCESS_KEY, S3Server.SECRET_KEY, S3Server.REGION,
            Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void aRequestSignedWithTheKeyPairIsAccepted() {
        assertThat(CHECK.check(signed(SdkHttpMethod.GET, "/etcd-backups/a/b.db", Map.of(), r -> { }))).isNull();
        assertThat(CHECK.check(signed(SdkHttpMethod.HEAD, "/etcd-backups", Map.of(), r -> { }))).isNull();
        assertThat(CHECK.check(signed(SdkHttpMethod.GET, "/", Map.of(), r -> { }))).isNull();
    }

    @Test
    void keysAndQueriesThatNeedEncodingAreCanonicalisedAsTheSdkDoes() {
        String key = "/etcd-backups/dir with space/a+b=c&d~e!(f)*'/ünïcødé/%/x//y.db";
        Map<String, String> query = Map.of("list-type", "2", "prefix", "a b+c/", "delimiter", "/",
                "continuation-token", "1==", "uploads", "");
        assertThat(CHECK.check(signed(SdkHttpMethod.GET, key, query, r -> { }))).isNull();
        assertThat(CHECK.check(signed(SdkHttpMethod.PUT, key, Map.of("partNumber", "3", "uploadId", "x+y/z="),
                r -> r.putHeader("x-amz-meta-Snapshot-Name", "  two   spaces ")
                        .putHeader("Content-Type", "application/octet-stream")))).isNull();
    }

    @Test
    void aSignedPayloadHashIsTakenFromItsHeader() {
        SigV4Check.Request request = signed(SdkHttpMethod.PUT, "/etcd-backups/k", Map.of(), r -> { }, true);

        assertThat(request.header("x-amz-content-sha256")).matches("[0-9a-f]{64}");
        assertThat(CHECK.check(request)).isNull();
    }

    @Test
    void aWrongKeyIdIsRefusedAsInvalidAccessKeyId() {
        SigV4Check.Refusal refusal = CHECK.check(signed("nobody", S3Server.SECRET_KEY, S3Server.REGION, NOW,
                SdkHttpMethod.GET, "/etcd-backups/k", Map.of(), r -> { }, false, false));

        assertThat(refusal.status()).isEqualTo(403);
        assertThat(refusal.code()).isEqualTo("InvalidAccessKeyId");
        assertThat(refusal.details()).containsEntry("AWSAccessKeyId", "nobody");
    }

    @Test
    void aWrongSecretIsRefusedAsSignatureDoesNotMatch() {
        SigV4Check.Refusal refusal = CHECK.check(signed(S3Server.ACCESS_KEY, "wrong-secret", S3Server.REGION, NOW,
                SdkHttpMethod.GET, "/etcd-backups/k", Map.of(), r -> { }, false, false));

        assertThat(refusal.status()).isEqualTo(403);
        assertThat(refusal.code()).isEqualTo("SignatureDoesNotMatch");
        assertThat(refusal.details()).containsKeys("StringToSign", "CanonicalRequest", "SignatureProvided");
    }

    @Test
    void aRequestChangedAfterSigningIsRefused() {
        SigV4Check.Request request = signed(SdkHttpMethod.GET, "/etcd-backups/k", Map.of(), r -> { });

        assertThat(CHECK.check(new SigV4Check.Request("DELETE", request.target(), request.headers())).code())
                .isEqualTo("SignatureDoesNotMatch");
        assertThat(CHECK.check(new SigV4Check.Request("GET", "/etcd-backups/other", request.headers())).code())
                .isEqualTo("SignatureDoesNotMatch");
        assertThat(CHECK.check(new SigV4Check.Request("GET", request.target() + "?uploads",
                request.headers())).code()).isEqualTo("SignatureDoesNotMatch");
        Map<String, List<String>> headers = new TreeMap<>(request.headers());
        headers.put("x-amz-date", List.of("20260301T100001Z"));
        assertThat(CHECK.check(new SigV4Check.Request("GET", request.target(), headers)).code())
                .isEqualTo("SignatureDoesNotMatch");
    }

    @Test
    void noCredentialsAtAllIsAccessDenied() {
        SigV4Check.Refusal refusal = CHECK.check(new SigV4Check.Request("GET", "/etcd-backups?list-type=2",
                Map.of("host", List.of("127.0.0.1:9090"))));

        assertThat(refusal.status()).isEqualTo(403);
        assertThat(refusal.code()).isEqualTo("AccessDenied");
    }

    @Test
    void otherRegionsAndClocksFarOffAreRefusedAsS3RefusesThem() {
        SigV4Check.Refusal region = CHECK.check(signed(S3Server.ACCESS_KEY, S3Server.SECRET_KEY, "eu-west-1", NOW,
                SdkHttpMethod.GET, "/etcd-backups/k", Map.of(), r -> { }, false, false));
        assertThat(region.status()).isEqualTo(400);
        assertThat(region.code()).isEqualTo("AuthorizationHeaderMalformed");
        assertThat(region.details()).containsEntry("Region", S3Server.REGION);

        SigV4Check.Refusal skewed = CHECK.check(signed(S3Server.ACCESS_KEY, S3Server.SECRET_KEY, S3Server.REGION,
                NOW.minus(Duration.ofMinutes(16)), SdkHttpMethod.GET, "/etcd-backups/k", Map.of(), r -> { }, false,
                false));
        assertThat(skewed.status()).isEqualTo(403);
        assertThat(skewed.code()).isEqualTo("RequestTimeTooSkewed");
        assertThat(CHECK.check(signed(S3Server.ACCESS_KEY, S3Server.SECRET_KEY, S3Server.REGION,
                NOW.minus(Duration.ofMinutes(14)), SdkHttpMethod.GET, "/etcd-backups/k", Map.of(), r -> { }, false,
                false))).isNull();
    }

    @Test
    void aPresignedUrlIsCheckedFromItsQuery() {
        SigV4Check.Request presigned = signed(S3Server.ACCESS_KEY, S3Server.SECRET_KEY, S3Server.REGION, NOW,
                SdkHttpMethod.GET, "/etcd-backups/restore me/snapshot.db", Map.of(), r -> { }, false, true);
        assertThat(presigned.target()).contains("X-Amz-Signature=").contains("X-Amz-Credential=");
        assertThat(presigned.header("authorization")).isNull();

        assertThat(CHECK.check(presigned)).isNull();
        // wget sends headers of its own; they are not signed
        Map<String, List<String>> headers = new TreeMap<>(presigned.headers());
        headers.put("user-agent", List.of("Wget/1.21.3"));
        headers.put("accept", List.of("*/*"));
        assertThat(CHECK.check(new SigV4Check.Request("GET", presigned.target(), headers))).isNull();

        String otherKey = presigned.target().replace("snapshot.db", "other.db");
        assertThat(CHECK.check(new SigV4Check.Request("GET", otherKey, headers)).code())
                .isEqualTo("SignatureDoesNotMatch");
        SigV4Check.Refusal wrongKey = CHECK.check(signed("nobody", S3Server.SECRET_KEY, S3Server.REGION, NOW,
                SdkHttpMethod.GET, "/etcd-backups/k", Map.of(), r -> { }, false, true));
        assertThat(wrongKey.code()).isEqualTo("InvalidAccessKeyId");
        SigV4Check.Refusal wrongSecret = CHECK.check(signed(S3Server.ACCESS_KEY, "wrong", S3Server.REGION, NOW,
                SdkHttpMethod.GET, "/etcd-backups/k", Map.of(), r -> { }, false, true));
        assertThat(wrongSecret.code()).isEqualTo("SignatureDoesNotMatch");
    }

    @Test
    void anExpiredPresignedUrlIsAccessDenied() {
        // the SDK's presigned URLs here are valid for 15 minutes
        SigV4Check.Request presigned = signed(S3Server.ACCESS_KEY, S3Server.SECRET_KEY, S3Server.REGION,
                NOW.minus(Duration.ofMinutes(16)), SdkHttpMethod.GET, "/etcd-backups/k", Map.of(), r -> { }, false,
                true);

        SigV4Check.Refusal refusal = CHECK.check(presigned);

        assertThat(refusal.status()).isEqualTo(403);
        assertThat(refusal.code()).isEqualTo("AccessDenied");
        assertThat(refusal.message()).isEqualTo("Request has expired");
    }

    @Test
    void bothMechanismsAtOnceAreRefused() {
        SigV4Check.Request presigned = signed(S3Server.ACCESS_KEY, S3Server.SECRET_KEY, S3Server.REGION, NOW,
                SdkHttpMethod.GET, "/etcd-backups/k", Map.of(), r -> { }, false, true);
        Map<String, List<String>> headers = new TreeMap<>(presigned.headers());
        headers.put("authorization", List.of("AWS4-HMAC-SHA256 Credential=x"));

        assertThat(CHECK.check(new SigV4Check.Request("GET", presigned.target(), headers)).code())
                .isEqualTo("InvalidArgument");
    }

    @Test
    void uriEncodingIsSigV4s() {
        assertThat(SigV4Check.uriEncode("a b+c/~-_.é", false)).isEqualTo("a%20b%2Bc/~-_.%C3%A9");
        assertThat(SigV4Check.uriEncode("a/b", true)).isEqualTo("a%2Fb");
        assertThat(SigV4Check.percentDecode("a%20b+c%2f%zz")).isEqualTo("a b+c/%zz");
    }

    private static SigV4Check.Request signed(SdkHttpMethod method, String path, Map<String, String> query,
            Consumer<SdkHttpRequest.Builder> more) {
        return signed(method, path, query, more, false);
    }

    private static SigV4Check.Request signed(SdkHttpMethod method, String path, Map<String, String> query,
            Consumer<SdkHttpRequest.Builder> more, boolean signPayload) {
        return signed(S3Server.ACCESS_KEY, S3Server.SECRET_KEY, S3Server.REGION, NOW, method, path, query, more,
                signPayload, false);
    }

    /** A request signed by the SDK's signer with S3's settings, turned into what the front receives. */
    private static SigV4Check.Request signed(String keyId, String secret, String region, Instant at,
            SdkHttpMethod method, String path, Map<String, String> query, Consumer<SdkHttpRequest.Builder> more,
            boolean signPayload, boolean presign) {
        SdkHttpRequest.Builder builder = SdkHttpRequest.builder().method(method)
                .uri(URI.create("http://127.0.0.1:9090"))
                .encodedPath(SdkHttpUtils.urlEncodeIgnoreSlashes(path));
        query.forEach(builder::putRawQueryParameter);
        more.accept(builder);
        SignRequest.Builder<AwsCredentialsIdentity> sign = SignRequest.builder(AwsCredentialsIdentity.create(keyId,
                        secret))
                .request(builder.build())
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
                .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false)
                .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, signPayload)
                .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, Clock.fixed(at, ZoneOffset.UTC));
        if (presign) {
            sign.putProperty(AwsV4HttpSigner.AUTH_LOCATION, AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING)
                    .putProperty(AwsV4HttpSigner.EXPIRATION_DURATION, Duration.ofMinutes(15));
        }
        if (method == SdkHttpMethod.PUT) {
            sign.payload(ContentStreamProvider.fromUtf8String("the body"));
        }
        SdkHttpRequest request = AwsV4HttpSigner.create().sign(sign.build()).request();
        String target = request.encodedPath().isEmpty() ? "/" : request.encodedPath();
        String rawQuery = SdkHttpUtils.encodeAndFlattenQueryParameters(request.rawQueryParameters()).orElse(null);
        Map<String, List<String>> headers = new TreeMap<>();
        request.forEachHeader((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), new ArrayList<>(values)));
        headers.putIfAbsent("host", List.of("127.0.0.1:9090"));
        return new SigV4Check.Request(method.name(), rawQuery == null ? target : target + "?" + rawQuery, headers);
    }
}
