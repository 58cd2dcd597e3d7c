package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** When one certificate of the cluster's TLS Secrets expires. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CertificateStatus {
    @JsonPropertyDescription("The Secret.")
    private String secret;

    @JsonPropertyDescription("The key in it (the certificate, or the CA bundle).")
    private String key;

    @JsonPropertyDescription("Subject of the first certificate under that key to expire.")
    private String subject;

    @JsonPropertyDescription("When it expires (RFC 3339).")
    private String notAfter;

    public CertificateStatus() {
    }

    public CertificateStatus(String secret, String key, String subject, String notAfter) {
        this.secret = secret;
        this.key = key;
        this.subject = subject;
        this.notAfter = notAfter;
    }

    public String getSecret() {
        return secret;
    }

    public void setSecret(String secret) {
        this.secret = secret;
    }

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }

    public String getSubject() {
        return subject;
    }

    public void setSubject(String subject) {
        this.subject = subject;
    }

    public String getNotAfter() {
        return notAfter;
    }

    public void setNotAfter(String notAfter) {
        this.notAfter = notAfter;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CertificateStatus c && java.util.Objects.equals(secret, c.secret)
                && java.util.Objects.equals(key, c.key) && java.util.Objects.equals(subject, c.subject)
                && java.util.Objects.equals(notAfter, c.notAfter);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(secret, key, subject, notAfter);
    }
}
