package dev.etcdoperator.core.validation;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import dev.etcdoperator.api.v1beta2.InputRules;
import dev.etcdoperator.api.v1beta2.ResourceName;
import dev.etcdoperator.api.v1beta2.S3ClientSideEncryption;
import dev.etcdoperator.api.v1beta2.S3ServerSideEncryption;
import dev.etcdoperator.api.v1beta2.S3Source;
import dev.etcdoperator.api.v1beta2.StorageType;

/** Collects field errors; the checks shared by the three kinds. */
final class Checks {
    private static final Pattern S3_PATH = Pattern.compile(S3Source.PATH_PATTERN);
    private static final Pattern SECRET_KEY = Pattern.compile(S3ClientSideEncryption.SECRET_KEY_PATTERN);
    private static final Pattern KMS_KEY_ID = Pattern.compile(S3ServerSideEncryption.KMS_KEY_ID_PATTERN);
    private static final Pattern S3_ENDPOINT = Pattern.compile(InputRules.S3_ENDPOINT);
    private static final Pattern NAME = Pattern.compile(ResourceName.PATTERN);
    private static final Pattern PORT = Pattern.compile(":([0-9]{1,5})/?$");

    private final List<FieldError> errors = new ArrayList<>();

    void fail(String path, String message) {
        errors.add(new FieldError(path, message));
    }

    boolean blank(String value) {
        return value == null || value.isBlank();
    }

    void requireName(String path, String value) {
        if (blank(value)) {
            fail(path, "Required value");
        } else if (value.length() > InputRules.NAME_MAX_LENGTH || !NAME.matcher(value).matches()) {
            fail(path, "must be a DNS-1123 label (at most 63 lower case letters, digits and '-'), got " + quote(value));
        }
    }

    void requireNonNegative(String path, Number value) {
        if (value != null && value.longValue() < 0) {
            fail(path, "must be 0 or more, got " + value);
        }
    }

    /** 0 to {@code max}, when set. */
    void requireRange(String path, Number value, long max) {
        if (value == null) {
            return;
        }
        if (value.longValue() < 0) {
            fail(path, "must be 0 or more, got " + value);
        } else if (value.longValue() > max) {
            fail(path, "must be at most " + max + ", got " + value);
        }
    }

    /**
     * A set value must be at most {@code maxLength} long (checked first, so that no long value reaches the
     * pattern) and match {@code pattern}; the refusal quotes the value with its control characters escaped.
     */
    boolean requireFormat(String path, String value, Pattern pattern, long maxLength, String what) {
        if (value == null) {
            return true;
        }
        if (value.length() > maxLength) {
            fail(path, "must be at most " + maxLength + " characters, got " + value.length());
            return false;
        }
        if (!pattern.matcher(value).matches()) {
            fail(path, "must be " + what + ", got " + quote(value));
            return false;
        }
        return true;
    }

    /** A port in a URL that matched a pattern allowing up to 5 digits: 1 to 65535. */
    void requirePort(String path, String url) {
        var m = PORT.matcher(url);
        if (m.find()) {
            int port = Integer.parseInt(m.group(1));
            if (port < 1 || port > 65535) {
                fail(path, "port must be 1 to 65535, got " + port);
                return;
            }
        }
        // the pattern lets through what only a parser refuses, such as a bracketed address that is no IPv6 address
        try {
            if (new URI(url.contains("://") ? url : "http://" + url).getHost() == null) {
                fail(path, "has no host name or address: " + quote(url));
            }
        } catch (URISyntaxException e) {
            fail(path, "is not a valid URL: " + e.getReason());
        }
    }

    /** A value as a message may show it: quoted, control characters escaped, cut after 80 characters. */
    static String quote(String value) {
        StringBuilder out = new StringBuilder("'");
        int shown = Math.min(value.length(), 80);
        for (int i = 0; i < shown; i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        if (value.length() > shown) {
            out.append("...");
        }
        return out.append('\'').toString();
    }

    /** storageType and its source: known type, supported type, and the S3 fields. */
    void storage(String typePath, String type, String s3Path, S3Source s3) {
        if (blank(type)) {
            fail(typePath, "Required value");
            return;
        }
        if (!StorageType.ALL.contains(type)) {
            fail(typePath, "Unsupported value: \"" + type + "\": supported values: \"S3\"");
            return;
        }
        if (!StorageType.SUPPORTED.contains(type)) {
            fail(typePath, "storage type " + type + " is not supported by this operator; use S3 "
                    + "(any S3-compatible store works through s3.endpoint)");
            return;
        }
        if (s3 == null) {
            fail(s3Path, "Required value: storage type S3 needs s3");
            return;
        }
        if (blank(s3.getPath())) {
            fail(s3Path + ".path", "Required value");
        } else {
            requireFormat(s3Path + ".path", s3.getPath(), S3_PATH, InputRules.S3_PATH_MAX_LENGTH,
                    "<bucket>/<key>: an S3 bucket name, then key segments of letters, digits and . _ - = : , "
                            + "joined by single slashes, none of them . or ..");
        }
        if (!blank(s3.getAwsSecret())) {
            requireName(s3Path + ".awsSecret", s3.getAwsSecret());
        }
        if (s3.getEndpoint() != null && !s3.getEndpoint().isEmpty()
                && requireFormat(s3Path + ".endpoint", s3.getEndpoint(), S3_ENDPOINT, InputRules.S3_ENDPOINT_MAX_LENGTH,
                        "an http:// or https:// URL of a host and an optional port, without user info, path, query "
                                + "or fragment")) {
            requirePort(s3Path + ".endpoint", s3.getEndpoint());
        }
        S3ServerSideEncryption sse = s3.getServerSideEncryption();
        if (sse != null) {
            String path = s3Path + ".serverSideEncryption";
            if (!S3ServerSideEncryption.AES256.equals(sse.getAlgorithm())
                    && !S3ServerSideEncryption.KMS.equals(sse.getAlgorithm())) {
                String got = sse.getAlgorithm() == null ? "none" : quote(sse.getAlgorithm());
                fail(path + ".algorithm", "Unsupported value: " + got + ": supported values: \""
                        + S3ServerSideEncryption.AES256 + "\", \"" + S3ServerSideEncryption.KMS + "\"");
            }
            if (!blank(sse.getKmsKeyId())) {
                if (!S3ServerSideEncryption.KMS.equals(sse.getAlgorithm())) {
                    fail(path + ".kmsKeyId", "kmsKeyId is used with algorithm aws:kms only");
                } else {
                    requireFormat(path + ".kmsKeyId", sse.getKmsKeyId(), KMS_KEY_ID,
                            S3ServerSideEncryption.KMS_KEY_ID_MAX_LENGTH,
                            "a KMS key id, ARN or alias of letters, digits and : / _ . + = , @ -");
                }
            }
        }
        S3ClientSideEncryption cse = s3.getClientSideEncryption();
        if (cse != null) {
            String path = s3Path + ".clientSideEncryption";
            if (blank(cse.getSecretName())) {
                fail(path + ".secretName", "Required value");
            } else {
                requireName(path + ".secretName", cse.getSecretName());
            }
            if (!blank(cse.getKey())) {
                requireFormat(path + ".key", cse.getKey(), SECRET_KEY, S3ClientSideEncryption.SECRET_KEY_MAX_LENGTH,
                        "a Secret's data key: letters, digits and - _ .");
            }
        }
    }

    Validation result() {
        return new Validation(errors);
    }
}
