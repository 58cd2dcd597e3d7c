package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** Where a backup lives in S3 or an S3-compatible store; the same fields for backup and restore. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class S3Source {
    public static final String PATH_PATTERN = InputRules.S3_PATH;

    @Required
    @Pattern(PATH_PATTERN)
    @Size(max = InputRules.S3_PATH_MAX_LENGTH)
    @JsonPropertyDescription("<bucket>/<key>; for periodic backups a prefix to which the revision and time are appended. Key segments: letters, digits and . _ - = : , (never . or ..).")
    private String path;

    @Pattern(ResourceName.PATTERN)
    @Size(max = InputRules.NAME_MAX_LENGTH)
    @JsonPropertyDescription("Secret holding AWS 'credentials' and 'config' files; profile 'default' is used. Without it, the operator's own credentials (web identity, pod identity, instance profile, environment).")
    private String awsSecret;

    @Pattern("^$|" + InputRules.S3_ENDPOINT)
    @Size(max = InputRules.S3_ENDPOINT_MAX_LENGTH)
    @JsonPropertyDescription("Endpoint of an S3-compatible store (scheme, host, optional port; no path, query or user info); blank means AWS.")
    private String endpoint;

    @JsonPropertyDescription("Use path-style addressing (bucket in the path), as most S3-compatible stores need.")
    private Boolean forcePathStyle;

    @JsonPropertyDescription("Additive: server-side encryption of every object a backup writes (SSE-S3 or SSE-KMS); the "
            + "backup fails, and leaves no object, when the store does not encrypt as asked. A restore reads such objects "
            + "without it.")
    private S3ServerSideEncryption serverSideEncryption;

    @JsonPropertyDescription("Additive: client-side envelope encryption of the snapshot with a key from a Secret "
            + "(AES-256-GCM in 1 MiB segments, a random data key per backup wrapped by that key). On a backup, every "
            + "object is encrypted before it leaves the operator; on a restore (and a backup's restore drills), the "
            + "key the backup was taken with, which must be given to read an encrypted backup.")
    private S3ClientSideEncryption clientSideEncryption;

    public String getPath() {
        return path;
    }

    public void setPath(String path) {
        this.path = path;
    }

    public String getAwsSecret() {
        return awsSecret;
    }

    public void setAwsSecret(String awsSecret) {
        this.awsSecret = awsSecret;
    }

    public String getEndpoint() {
        return endpoint;
    }

    public void setEndpoint(String endpoint) {
        this.endpoint = endpoint;
    }

    public Boolean getForcePathStyle() {
        return forcePathStyle;
    }

    public void setForcePathStyle(Boolean forcePathStyle) {
        this.forcePathStyle = forcePathStyle;
    }

    public S3ServerSideEncryption getServerSideEncryption() {
        return serverSideEncryption;
    }

    public void setServerSideEncryption(S3ServerSideEncryption serverSideEncryption) {
        this.serverSideEncryption = serverSideEncryption;
    }

    public S3ClientSideEncryption getClientSideEncryption() {
        return clientSideEncryption;
    }

    public void setClientSideEncryption(S3ClientSideEncryption clientSideEncryption) {
        this.clientSideEncryption = clientSideEncryption;
    }
}
