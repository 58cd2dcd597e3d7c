package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * Additive: client-side encryption of the snapshot, before it leaves the operator. The key is 32 random bytes in a
 * Secret of the resource's namespace, raw or base64.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class S3ClientSideEncryption {
    /** The Secret's entry when {@code key} is not given. */
    public static final String DEFAULT_KEY = "key";
    /** What a Secret's data key may be (Kubernetes: letters, digits, '-', '_', '.'). */
    public static final String SECRET_KEY_PATTERN = "^[-._a-zA-Z0-9]+$";
    public static final int SECRET_KEY_MAX_LENGTH = 253;

    @Required
    @Pattern(ResourceName.PATTERN)
    @Size(max = InputRules.NAME_MAX_LENGTH)
    @JsonPropertyDescription("Secret in the same namespace holding the 32-byte key (raw, or base64 as openssl rand -base64 32 writes). A backup needs the Secret it was taken with to be restored.")
    private String secretName;

    @Pattern(SECRET_KEY_PATTERN)
    @Size(max = SECRET_KEY_MAX_LENGTH)
    @JsonPropertyDescription("The entry of that Secret holding the key; blank means 'key'.")
    private String key;

    public String getSecretName() {
        return secretName;
    }

    public void setSecretName(String secretName) {
        this.secretName = secretName;
    }

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }
}
