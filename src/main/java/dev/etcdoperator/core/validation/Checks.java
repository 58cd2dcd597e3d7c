package dev.etcdoperator.core.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import dev.etcdoperator.api.v1beta2.ResourceName;
import dev.etcdoperator.api.v1beta2.S3Source;
import dev.etcdoperator.api.v1beta2.StorageType;

/** Collects field errors; the checks shared by the three kinds. */
final class Checks {
    private static final Pattern S3_PATH = Pattern.compile(S3Source.PATH_PATTERN);
    private static final Pattern NAME = Pattern.compile(ResourceName.PATTERN);

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
        } else if (value.length() > 63 || !NAME.matcher(value).matches()) {
            fail(path, "must be a DNS-1123 label (lower case letters, digits and '-'), got '" + value + "'");
        }
    }

    void requireNonNegative(String path, Number value) {
        if (value != null && value.longValue() < 0) {
            fail(path, "must be 0 or more, got " + value);
        }
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
        } else if (!S3_PATH.matcher(s3.getPath()).matches()) {
            fail(s3Path + ".path", "must be <bucket>/<key>, got '" + s3.getPath() + "'");
        }
        if (blank(s3.getAwsSecret())) {
            fail(s3Path + ".awsSecret", "Required value");
        } else {
            requireName(s3Path + ".awsSecret", s3.getAwsSecret());
        }
        if (!blank(s3.getEndpoint()) && !s3.getEndpoint().matches("^https?://.+")) {
            fail(s3Path + ".endpoint", "must be an http:// or https:// URL, got '" + s3.getEndpoint() + "'");
        }
    }

    Validation result() {
        return new Validation(errors);
    }
}
