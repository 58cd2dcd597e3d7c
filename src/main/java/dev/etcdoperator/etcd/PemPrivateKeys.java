package dev.etcdoperator.etcd;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Netty reads PKCS#8 keys ({@code BEGIN PRIVATE KEY}) by itself, but PKCS#1 RSA ({@code BEGIN RSA PRIVATE KEY}, what
 * cert-manager writes by default) and SEC1 EC ({@code BEGIN EC PRIVATE KEY}, what cfssl and openssl's traditional
 * format write) only with BouncyCastle, which the operator does not ship. This rewraps those two as PKCS#8, with
 * the JDK alone.
 */
public final class PemPrivateKeys {
    /** The body's characters exclude the dash, so a block without its end line fails in one pass, not in cubic time. */
    private static final Pattern PEM = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*)-----END \\1-----");
    /** Far above any real key (an RSA key of 16384 bits is about 12 KiB of PEM); a Secret's value may be 1 MiB. */
    static final int MAX_BYTES = 64 * 1024;
    private static final byte[] RSA_ALGORITHM = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86,
        (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00}; // SEQUENCE { rsaEncryption, NULL }
    private static final byte[] EC_PUBLIC_KEY_OID = {0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01};
    private static final byte[] VERSION_0 = {0x02, 0x01, 0x00};

    private PemPrivateKeys() {
    }

    /** The key as PKCS#8 PEM; a PKCS#8 key comes back as it was. */
    public static byte[] toPkcs8(byte[] pem) {
        if (pem.length > MAX_BYTES) {
            throw new IllegalArgumentException("the client key is " + pem.length + " bytes long; a PEM private key is"
                    + " at most " + MAX_BYTES);
        }
        String text = new String(pem, StandardCharsets.US_ASCII);
        Matcher m = PEM.matcher(text);
        while (m.find()) {
            String type = m.group(1);
            switch (type) {
                case "PRIVATE KEY":
                    return pem;
                case "RSA PRIVATE KEY":
                    return pkcs8Pem(rsa(decode(m.group(2), text)));
                case "EC PRIVATE KEY":
                    return pkcs8Pem(ec(decode(m.group(2), text)));
                case "ENCRYPTED PRIVATE KEY":
                    throw new IllegalArgumentException("the client key is encrypted; give it unencrypted");
                default:
                    // e.g. EC PARAMETERS before the key: look further
            }
        }
        if (text.contains("Proc-Type: 4,ENCRYPTED")) {
            throw new IllegalArgumentException("the client key is encrypted; give it unencrypted");
        }
        throw new IllegalArgumentException("the client key is not a PEM private key (PKCS#8, PKCS#1 RSA or SEC1 EC)");
    }

    /** The key as PKCS#8 DER, from the block {@link #toPkcs8} reads. */
    public static byte[] toPkcs8Der(byte[] pem) {
        Matcher m = PEM.matcher(new String(toPkcs8(pem), StandardCharsets.US_ASCII));
        while (m.find()) {
            if ("PRIVATE KEY".equals(m.group(1))) {
                return Base64.getMimeDecoder().decode(m.group(2));
            }
        }
        throw new IllegalArgumentException("the client key is not a PEM private key (PKCS#8, PKCS#1 RSA or SEC1 EC)");
    }

    private static byte[] decode(String base64, String whole) {
        if (whole.contains("Proc-Type: 4,ENCRYPTED")) {
            throw new IllegalArgumentException("the client key is encrypted; give it unencrypted");
        }
        return Base64.getMimeDecoder().decode(base64);
    }

    private static byte[] rsa(byte[] pkcs1) {
        return sequence(VERSION_0, RSA_ALGORITHM, tlv(0x04, pkcs1));
    }

    /** SEC1: SEQUENCE { version, privateKey OCTET STRING, [0] curve OID OPTIONAL, [1] publicKey OPTIONAL }. */
    private static byte[] ec(byte[] sec1) {
        int[] outer = header(sec1, 0, 0x30);
        int pos = outer[0];
        int end = outer[0] + outer[1];
        byte[] curve = null;
        while (pos < end) {
            int tag = sec1[pos] & 0xff;
            int[] h = header(sec1, pos, tag);
            if (tag == 0xa0) {
                curve = Arrays.copyOfRange(sec1, h[0], h[0] + h[1]); // the OID element, tag included
            }
            pos = h[0] + h[1];
        }
        if (curve == null || curve[0] != 0x06) {
            throw new IllegalArgumentException("the EC client key does not name its curve; give it as PKCS#8");
        }
        return sequence(VERSION_0, sequence(EC_PUBLIC_KEY_OID, curve), tlv(0x04, sec1));
    }

    /** Checks the tag at {@code pos}; returns {start of content, content length}. */
    private static int[] header(byte[] der, int pos, int expectedTag) {
        if (pos + 2 > der.length || (der[pos] & 0xff) != expectedTag) {
            throw new IllegalArgumentException("the client key is not valid DER");
        }
        int len = der[pos + 1] & 0xff;
        int start = pos + 2;
        if (len >= 0x80) {
            int bytes = len & 0x7f;
            if (bytes == 0 || bytes > 3 || start + bytes > der.length) {
                throw new IllegalArgumentException("the client key is not valid DER");
            }
            len = 0;
            for (int i = 0; i < bytes; i++) {
                len = (len << 8) | (der[start + i] & 0xff);
            }
            start += bytes;
        }
        if (start + len > der.length) {
            throw new IllegalArgumentException("the client key is not valid DER (truncated)");
        }
        return new int[] {start, len};
    }

    private static byte[] sequence(byte[]... parts) {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            content.writeBytes(part);
        }
        return tlv(0x30, content.toByteArray());
    }

    private static byte[] tlv(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int len = content.length;
        if (len < 0x80) {
            out.write(len);
        } else if (len < 0x100) {
            out.write(0x81);
            out.write(len);
        } else if (len < 0x10000) {
            out.write(0x82);
            out.write(len >> 8);
            out.write(len);
        } else {
            out.write(0x83);
            out.write(len >> 16);
            out.write(len >> 8);
            out.write(len);
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    private static byte[] pkcs8Pem(byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return ("-----BEGIN PRIVATE KEY-----\n" + body + "\n-----END PRIVATE KEY-----\n").getBytes(StandardCharsets.US_ASCII);
    }
}
