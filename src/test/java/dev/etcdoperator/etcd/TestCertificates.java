package dev.etcdoperator.etcd;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A throw-away CA, a server certificate for one IP and a client certificate, made with the machine's openssl. */
public record TestCertificates(Path dir) {

    public static boolean opensslAvailable() {
        try {
            Process p = new ProcessBuilder("openssl", "version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Writes {@code <name>.crt} and {@code <name>.key} (EC P-256, PKCS#8) for a CA, "server" (SAN IP) and "client". */
    static TestCertificates create(Path dir, String serverIp) {
        TestCertificates certs = new TestCertificates(dir);
        certs.openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=etcd-admin-test-ca");
        certs.leaf("server", "etcd", "subjectAltName=IP:" + serverIp + "\nextendedKeyUsage=serverAuth,clientAuth\n");
        certs.leaf("client", "etcd-operator", "extendedKeyUsage=clientAuth\n");
        return certs;
    }

    /** A second, unrelated CA (for "wrong trust" tests). */
    static TestCertificates otherCa(Path dir) {
        TestCertificates certs = new TestCertificates(dir);
        certs.openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=someone-else");
        return certs;
    }

    /** Writes a key of the given openssl algorithm ("RSA", "EC") in both PKCS#8 and traditional form. */
    static TestCertificates keyPair(Path dir, String algorithm) {
        TestCertificates keys = new TestCertificates(dir);
        if (algorithm.equals("EC")) {
            keys.openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "pkcs8.key");
        } else {
            keys.openssl("genpkey", "-algorithm", algorithm, "-out", "pkcs8.key");
        }
        keys.openssl("pkey", "-in", "pkcs8.key", "-traditional", "-out", "traditional.key");
        return keys;
    }

    /** Also writes the client key in openssl's traditional form (SEC1 "EC PRIVATE KEY") as client-sec1.key. */
    TestCertificates withTraditionalClientKey() {
        openssl("pkey", "-in", "client.key", "-traditional", "-out", "client-sec1.key");
        return this;
    }

    Path file(String name) {
        return dir.resolve(name);
    }

    byte[] bytes(String name) {
        try {
            return Files.readAllBytes(file(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void leaf(String name, String cn, String extensions) {
        try {
            Files.writeString(file(name + ".ext"), extensions);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", name + ".key", "-out", name + ".csr", "-subj", "/CN=" + cn);
        openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", name + ".crt", "-days", "2", "-extfile", name + ".ext");
    }

    private void openssl(String... args) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        openssl(dir, args);
    }

    /** Runs the machine's openssl in {@code dir}; fails with its output when it fails. */
    public static void openssl(Path dir, String... args) {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException("openssl failed: " + command + "\n" + out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
