package dev.etcdoperator.support;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import io.fabric8.kubernetes.api.model.Secret;

/** Reads a key of a Secret, from {@code data} (base64) or {@code stringData}. */
public final class SecretData {

    private SecretData() {
    }

    /** The decoded value, or null when the key is absent or not valid base64. */
    public static byte[] value(Secret secret, String key) {
        if (secret.getData() != null && secret.getData().get(key) != null) {
            try {
                return Base64.getDecoder().decode(secret.getData().get(key).strip());
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
        if (secret.getStringData() != null && secret.getStringData().get(key) != null) {
            return secret.getStringData().get(key).getBytes(StandardCharsets.UTF_8);
        }
        return null;
    }
}
