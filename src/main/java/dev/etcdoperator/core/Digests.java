package dev.etcdoperator.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Short, stable tokens made from text, for names and annotations that must say what they stand for. */
public final class Digests {
    private Digests() {
    }

    /** The first {@code bytes} bytes of the SHA-256 of {@code text} (UTF-8), in lower-case hex. */
    public static String shortSha256(String text, int bytes) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
