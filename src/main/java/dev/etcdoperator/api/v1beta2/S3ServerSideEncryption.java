package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/** Additive: the server-side encryption S3 applies to every object the operator writes. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.kmsKeyId) || self.algorithm == 'aws:kms'",
        message = "kmsKeyId is used with algorithm aws:kms only")
public class S3ServerSideEncryption {
    public static final String AES256 = "AES256";
    public static final String KMS = "aws:kms";
    public static final String KMS_KEY_ID_PATTERN = "^[A-Za-z0-9][A-Za-z0-9:/_.+=,@-]*$";
    public static final int KMS_KEY_ID_MAX_LENGTH = 2048;

    @Required
    @Pattern("^(AES256|aws:kms)$")
    @JsonPropertyDescription("AES256 (SSE-S3: keys managed by the store) or aws:kms (SSE-KMS).")
    private String algorithm;

    @Pattern(KMS_KEY_ID_PATTERN)
    @Size(max = KMS_KEY_ID_MAX_LENGTH)
    @JsonPropertyDescription("With aws:kms: the KMS key (id, ARN, alias/<name> or alias ARN); blank means the store's default KMS key.")
    private String kmsKeyId;

    public String getAlgorithm() {
        return algorithm;
    }

    public void setAlgorithm(String algorithm) {
        this.algorithm = algorithm;
    }

    public String getKmsKeyId() {
        return kmsKeyId;
    }

    public void setKmsKeyId(String kmsKeyId) {
        this.kmsKeyId = kmsKeyId;
    }
}
