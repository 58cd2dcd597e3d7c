package dev.etcdoperator.storage;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.util.Optional;

import dev.etcdoperator.core.backup.BackupFailure;
import software.amazon.awssdk.profiles.Profile;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.profiles.ProfileProperty;

/**
 * Reads the {@code credentials} and {@code config} files of an AWS-style Secret with the AWS SDK's own profile
 * parser and takes profile {@code default}. Only static keys (with an optional session token) are used:
 * a profile that would run a credential process or assume a role is refused, so a Secret cannot make the
 * operator run anything.
 */
public final class AwsProfiles {
    private static final java.util.regex.Pattern REGION = java.util.regex.Pattern.compile("[A-Za-z0-9._-]{1,64}");
    static final String PROFILE = "default";
    static final String DEFAULT_REGION_FOR_CUSTOM_ENDPOINTS = "us-east-1";

    private AwsProfiles() {
    }

    /**
     * @param credentials the {@code credentials} file, or null
     * @param config      the {@code config} file, or null
     * @param secretName  for messages
     */
    public static S3Settings settings(byte[] credentials, byte[] config, String secretName, String endpoint,
            boolean forcePathStyle) {
        if (credentials == null && config == null) {
            throw invalid(secretName, "has neither a 'credentials' nor a 'config' file");
        }
        ProfileFile.Aggregator files = ProfileFile.aggregator();
        try {
            if (credentials != null) {
                files.addFile(parse(credentials, ProfileFile.Type.CREDENTIALS));
            }
            if (config != null) {
                files.addFile(parse(config, ProfileFile.Type.CONFIGURATION));
            }
        } catch (RuntimeException e) {
            throw invalid(secretName, "cannot be read as AWS profile files: " + e.getMessage());
        }
        ProfileFile merged = files.build();
        Profile profile = merged.profile(PROFILE).orElseThrow(() -> invalid(secretName,
                "has no profile [default] in its 'credentials' or 'config' file"));
        for (String refused : new String[] {ProfileProperty.CREDENTIAL_PROCESS, ProfileProperty.ROLE_ARN,
                ProfileProperty.SSO_START_URL, ProfileProperty.WEB_IDENTITY_TOKEN_FILE}) {
            if (profile.property(refused).isPresent()) {
                throw invalid(secretName, "profile [default] uses " + refused
                        + "; only aws_access_key_id and aws_secret_access_key (and aws_session_token) are supported");
            }
        }
        String keyId = property(profile, ProfileProperty.AWS_ACCESS_KEY_ID)
                .orElseThrow(() -> invalid(secretName, "profile [default] has no aws_access_key_id"));
        String secret = property(profile, ProfileProperty.AWS_SECRET_ACCESS_KEY)
                .orElseThrow(() -> invalid(secretName, "profile [default] has no aws_secret_access_key"));
        String token = property(profile, ProfileProperty.AWS_SESSION_TOKEN).orElse(null);
        URI endpointUri = endpoint == null || endpoint.isBlank() ? null : URI.create(endpoint.strip());
        String region = property(profile, ProfileProperty.REGION).orElse(null);
        if (region == null) {
            if (endpointUri == null) {
                throw invalid(secretName, "profile [default] has no region; AWS needs one (region = ... in 'config')");
            }
            region = DEFAULT_REGION_FOR_CUSTOM_ENDPOINTS;
        }
        if (!REGION.matcher(region).matches()) {
            // it is part of every request's signature (and of AWS's host names): refused at each request otherwise
            throw invalid(secretName, "profile [default] has region '" + region + "', which is no region name"
                    + " (letters, digits, '-', '_' and '.', at most 64; e.g. us-east-1)");
        }
        return new S3Settings(keyId, secret, token, region, endpointUri, forcePathStyle);
    }

    private static ProfileFile parse(byte[] content, ProfileFile.Type type) {
        return ProfileFile.builder().content(new ByteArrayInputStream(content)).type(type).build();
    }

    private static Optional<String> property(Profile profile, String name) {
        return profile.property(name).map(String::strip).filter(v -> !v.isEmpty());
    }

    private static BackupFailure invalid(String secretName, String problem) {
        return new BackupFailure(BackupFailure.AWS_SECRET_INVALID, "Secret " + secretName + " " + problem, true);
    }
}
