package dev.etcdoperator.sandbox.s3;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Checks the credentials of an S3 request as S3 does, for one key pair and one region: AWS Signature Version 4,
 * in the {@code Authorization} header or in the query of a presigned URL.
 *
 * <p>The signature is recomputed from the request line and the signed headers as received, following the public
 * SigV4 specification with S3's rules (the path is not normalised and is encoded once). The payload hash is the one
 * the request states ({@code x-amz-content-sha256}, {@code UNSIGNED-PAYLOAD} for presigned URLs): the body is never
 * read here, and the per-chunk signatures of {@code STREAMING-AWS4-HMAC-SHA256-PAYLOAD} bodies are not checked.
 */
final class SigV4Check {
    static final String ALGORITHM = "AWS4-HMAC-SHA256";
    /** S3 refuses a request whose signing time is further than this from its clock. */
    static final Duration MAX_SKEW = Duration.ofMinutes(15);
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'",
            Locale.ROOT);
    private static final HexFormat HEX = HexFormat.of();

    /** Why a request is refused: the HTTP status, S3's error code and message, and elements S3 adds to them. */
    record Refusal(int status, String code, String message, Map<String, String> details) {
        Refusal(int status, String code, String message) {
            this(status, code, message, Map.of());
        }
    }

    /** A request as it came: method, request target (raw path and query), headers by lower-case name. */
    record Request(String method, String target, Map<String, List<String>> headers) {
        String header(String lowerCaseName) {
            List<String> values = headers.get(lowerCaseName);
            return values == null || values.isEmpty() ? null : values.get(0);
        }
    }

    private final String accessKeyId;
    private final String secretKey;
    private final String region;
    private final Clock clock;

    SigV4Check(String accessKeyId, String secretKey, String region, Clock clock) {
        this.accessKeyId = accessKeyId;
        this.secretKey = secretKey;
        this.region = region;
        this.clock = clock;
    }

    /** @return null when the request is signed with this key pair, else why it is refused */
    Refusal check(Request request) {
        int q = request.target().indexOf('?');
        String rawPath = q < 0 ? request.target() : request.target().substring(0, q);
        List<String[]> query = q < 0 ? List.of() : parseQuery(request.target().substring(q + 1));
        String authorization = request.header("authorization");
        boolean presigned = query.stream().anyMatch(p -> p[0].equalsIgnoreCase("X-Amz-Signature")
                || p[0].equalsIgnoreCase("X-Amz-Credential") || p[0].equalsIgnoreCase("X-Amz-Algorithm"));
        if (authorization != null && presigned) {
            return new Refusal(400, "InvalidArgument", "Only one auth mechanism allowed; only the X-Amz-Algorithm "
                    + "query parameter, Signature query string parameter or the Authorization header should be "
                    + "specified");
        }
        if (authorization == null && !presigned) {
            return new Refusal(403, "AccessDenied", "Access Denied");
        }
        return presigned ? checkPresigned(request, rawPath, query) : checkHeader(request, rawPath, query,
                authorization);
    }

    private Refusal checkHeader(Request request, String rawPath, List<String[]> query, String authorization) {
        if (!authorization.startsWith(ALGORITHM + " ")) {
            return authorization.startsWith("AWS ")
                    ? new Refusal(400, "InvalidRequest", "The authorization mechanism you have provided is not "
                            + "supported. Please use AWS4-HMAC-SHA256.")
                    : new Refusal(400, "InvalidArgument", "Unsupported Authorization Type");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (String part : authorization.substring(ALGORITHM.length() + 1).split(",")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                fields.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
            }
        }
        String credential = fields.get("Credential");
        String signedHeaders = fields.get("SignedHeaders");
        String signature = fields.get("Signature");
        if (credential == null || signedHeaders == null || signature == null) {
            return malformedHeader("The authorization header is malformed; it must name Credential, "
                    + "SignedHeaders and Signature.");
        }
        String amzDate = request.header("x-amz-date");
        if (amzDate == null && request.header("date") != null) {
            try {
                amzDate = AMZ_DATE.format(ZonedDateTime.parse(request.header("date"),
                        DateTimeFormatter.RFC_1123_DATE_TIME).withZoneSameInstant(ZoneOffset.UTC));
            } catch (DateTimeParseException e) {
                amzDate = null;
            }
        }
        Instant signedAt = parseAmzDate(amzDate);
        if (signedAt == null) {
            return new Refusal(403, "AccessDenied", "AWS authentication requires a valid Date or x-amz-date header");
        }
        String payloadHash = request.header("x-amz-content-sha256");
        if (payloadHash == null) {
            return new Refusal(400, "InvalidRequest", "Missing required header for this request: "
                    + "x-amz-content-sha256");
        }
        Refusal scope = checkScope(credential, amzDate, false);
        if (scope != null) {
            return scope;
        }
        Instant now = clock.instant();
        if (Duration.between(signedAt, now).abs().compareTo(MAX_SKEW) > 0) {
            return new Refusal(403, "RequestTimeTooSkewed", "The difference between the request time and the "
                    + "current time is too large.", details("RequestTime", amzDate, "ServerTime", now.toString(),
                    "MaxAllowedSkewMilliseconds", Long.toString(MAX_SKEW.toMillis())));
        }
        return checkSignature(request, rawPath, query, credential, signedHeaders, amzDate, payloadHash, signature);
    }

    private Refusal checkPresigned(Request request, String rawPath, List<String[]> query) {
        String algorithm = param(query, "X-Amz-Algorithm");
        String credential = param(query, "X-Amz-Credential");
        String amzDate = param(query, "X-Amz-Date");
        String expires = param(query, "X-Amz-Expires");
        String signedHeaders = param(query, "X-Amz-SignedHeaders");
        String signature = param(query, "X-Amz-Signature");
        if (!ALGORITHM.equals(algorithm)) {
            return malformedQuery("X-Amz-Algorithm only supports \"" + ALGORITHM + "\"");
        }
        if (credential == null || amzDate == null || expires == null || signedHeaders == null
                || signature == null) {
            return malformedQuery("Query-string authentication version 4 requires the X-Amz-Algorithm, "
                    + "X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires "
                    + "parameters.");
        }
        Instant signedAt = parseAmzDate(amzDate);
        if (signedAt == null) {
            return malformedQuery("X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"");
        }
        long seconds;
        try {
            seconds = Long.parseLong(expires);
        } catch (NumberFormatException e) {
            seconds = -1;
        }
        if (seconds < 0) {
            return malformedQuery("X-Amz-Expires should be a number");
        }
        if (seconds > Duration.ofDays(7).toSeconds()) {
            return malformedQuery("X-Amz-Expires must be less than a week (in seconds) that is 604800");
        }
        Refusal scope = checkScope(credential, amzDate, true);
        if (scope != null) {
            return scope;
        }
        Instant now = clock.instant();
        if (now.isAfter(signedAt.plusSeconds(seconds))) {
            return new Refusal(403, "AccessDenied", "Request has expired", details("X-Amz-Expires", expires,
                    "Expires", signedAt.plusSeconds(seconds).toString(), "ServerTime", now.toString()));
        }
        if (signedAt.isAfter(now.plus(MAX_SKEW))) {
            return new Refusal(403, "AccessDenied", "Request is not valid yet");
        }
        List<String[]> signedQuery = query.stream().filter(p -> !p[0].equals("X-Amz-Signature")).toList();
        String payloadHash = param(query, "X-Amz-Content-Sha256");
        return checkSignature(request, rawPath, signedQuery, credential, signedHeaders, amzDate,
                payloadHash == null ? "UNSIGNED-PAYLOAD" : payloadHash, signature);
    }

    /** {@code <key id>/<yyyyMMdd>/<region>/s3/aws4_request}: the key id first, the rest must fit the request. */
    private Refusal checkScope(String credential, String amzDate, boolean presigned) {
        String[] parts = credential.split("/", -1);
        if (parts.length < 5) {
            return malformed(presigned, "Error parsing the X-Amz-Credential parameter; the Credential is "
                    + "mal-formed; expecting \"<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request\".");
        }
        String keyId = String.join("/", List.of(parts).subList(0, parts.length - 4));
        String date = parts[parts.length - 4];
        String scopeRegion = parts[parts.length - 3];
        String service = parts[parts.length - 2];
        String terminator = parts[parts.length - 1];
        if (!accessKeyId.equals(keyId)) {
            return new Refusal(403, "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in "
                    + "our records.", details("AWSAccessKeyId", keyId));
        }
        if (!date.equals(amzDate.substring(0, 8))) {
            return malformed(presigned, "Invalid credential date \"" + date + "\". This date is not the same as "
                    + "X-Amz-Date: \"" + amzDate.substring(0, 8) + "\".");
        }
        if (!region.equals(scopeRegion)) {
            Refusal wrong = malformed(presigned, (presigned ? "Error parsing the X-Amz-Credential parameter; "
                    : "The authorization header is malformed; ") + "the region '" + scopeRegion
                    + "' is wrong; expecting '" + region + "'");
            return new Refusal(wrong.status(), wrong.code(), wrong.message(), details("Region", region));
        }
        if (!"s3".equals(service)) {
            return malformed(presigned, "Error parsing the Credential; incorrect service \"" + service
                    + "\". This endpoint belongs to \"s3\".");
        }
        if (!"aws4_request".equals(terminator)) {
            return malformed(presigned, "Error parsing the Credential; incorrect terminal \"" + terminator
                    + "\". This endpoint uses \"aws4_request\".");
        }
        return null;
    }

    private Refusal checkSignature(Request request, String rawPath, List<String[]> query, String credential,
            String signedHeaders, String amzDate, String payloadHash, String signature) {
        String canonicalRequest = canonicalRequest(request, rawPath, query, signedHeaders, payloadHash);
        // checkScope has made sure that the credential ends with this scope
        String scope = amzDate.substring(0, 8) + "/" + region + "/s3/aws4_request";
        String stringToSign = ALGORITHM + "\n" + amzDate + "\n" + scope + "\n"
                + HEX.formatHex(sha256(canonicalRequest.getBytes(StandardCharsets.UTF_8)));
        byte[] key = hmac(("AWS4" + secretKey).getBytes(StandardCharsets.UTF_8), amzDate.substring(0, 8));
        key = hmac(key, region);
        key = hmac(key, "s3");
        key = hmac(key, "aws4_request");
        String expected = HEX.formatHex(hmac(key, stringToSign));
        if (MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                signature.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII))) {
            return null;
        }
        return new Refusal(403, "SignatureDoesNotMatch", "The request signature we calculated does not match the "
                + "signature you provided. Check your key and signing method.", details(
                "AWSAccessKeyId", accessKeyId, "StringToSign", stringToSign, "SignatureProvided", signature,
                "CanonicalRequest", canonicalRequest));
    }

    static String canonicalRequest(Request request, String rawPath, List<String[]> query, String signedHeaders,
            String payloadHash) {
        StringBuilder canonical = new StringBuilder(256);
        canonical.append(request.method()).append('\n');
        String path = rawPath.isEmpty() ? "/" : uriEncode(percentDecode(rawPath), false);
        canonical.append(path).append('\n');
        List<String[]> encoded = new ArrayList<>();
        for (String[] p : query) {
            encoded.add(new String[] {uriEncode(p[0], true), uriEncode(p[1], true)});
        }
        encoded.sort(Comparator.<String[], String>comparing(p -> p[0]).thenComparing(p -> p[1]));
        for (int i = 0; i < encoded.size(); i++) {
            canonical.append(i == 0 ? "" : "&").append(encoded.get(i)[0]).append('=').append(encoded.get(i)[1]);
        }
        canonical.append('\n');
        for (String name : signedHeaders.split(";")) {
            List<String> values = request.headers().getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
            List<String> trimmed = values.stream().map(v -> v.trim().replaceAll("\\s+", " ")).toList();
            canonical.append(name.toLowerCase(Locale.ROOT)).append(':').append(String.join(",", trimmed))
                    .append('\n');
        }
        canonical.append('\n').append(signedHeaders).append('\n').append(payloadHash);
        return canonical.toString();
    }

    /** Name and value of each query parameter, percent-decoded ({@code +} stays {@code +}). */
    static List<String[]> parseQuery(String rawQuery) {
        List<String[]> params = new ArrayList<>();
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            params.add(new String[] {percentDecode(name), percentDecode(value)});
        }
        return params;
    }

    private static String param(List<String[]> query, String name) {
        return query.stream().filter(p -> p[0].equals(name)).map(p -> p[1]).findFirst().orElse(null);
    }

    static String percentDecode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
        byte[] raw = s.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] == '%' && i + 2 < raw.length && isHex(raw[i + 1]) && isHex(raw[i + 2])) {
                bytes.write(Character.digit(raw[i + 1], 16) << 4 | Character.digit(raw[i + 2], 16));
                i += 2;
            } else {
                bytes.write(raw[i]);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static boolean isHex(byte b) {
        return Character.digit(b, 16) >= 0;
    }

    /** SigV4's URI encoding: every byte but the unreserved characters (and {@code /} in a path) as %XX. */
    static String uriEncode(String s, boolean encodeSlash) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
                    || c == '.' || c == '~' || (c == '/' && !encodeSlash)) {
                out.append(c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }

    private static Instant parseAmzDate(String amzDate) {
        if (amzDate == null) {
            return null;
        }
        try {
            return LocalDateTime.parse(amzDate, AMZ_DATE).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static Refusal malformed(boolean presigned, String message) {
        return presigned ? malformedQuery(message) : malformedHeader(message);
    }

    private static Refusal malformedHeader(String message) {
        return new Refusal(400, "AuthorizationHeaderMalformed", message);
    }

    private static Refusal malformedQuery(String message) {
        return new Refusal(400, "AuthorizationQueryParametersError", message);
    }

    private static Map<String, String> details(String... namesAndValues) {
        Map<String, String> details = new LinkedHashMap<>();
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
            details.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return details;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
