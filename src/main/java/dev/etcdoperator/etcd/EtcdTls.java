package dev.etcdoperator.etcd;

import java.util.Objects;

/**
 * Client TLS material for talking to etcd, as PEM bytes (as found in a Kubernetes secret).
 *
 * @param caCert     the CA certificate(s) that signed the servers' certificates
 * @param clientCert the client certificate chain; null for server-only TLS
 * @param clientKey  the client's unencrypted private key in PEM: PKCS#8 ({@code BEGIN PRIVATE KEY}), PKCS#1 RSA or
 *                   SEC1 EC; null for server-only TLS
 */
public record EtcdTls(byte[] caCert, byte[] clientCert, byte[] clientKey) {

    public EtcdTls {
        Objects.requireNonNull(caCert, "caCert");
        if ((clientCert == null) != (clientKey == null)) {
            throw new IllegalArgumentException("a client certificate needs its key and the other way round");
        }
        caCert = caCert.clone();
        clientCert = clientCert == null ? null : clientCert.clone();
        clientKey = clientKey == null ? null : clientKey.clone();
    }

    public boolean hasClientCertificate() {
        return clientCert != null;
    }

    @Override
    public String toString() {
        return "EtcdTls[ca=" + caCert.length + " bytes, clientCert=" + (clientCert == null ? "none" : clientCert.length + " bytes")
                + ", clientKey=" + (clientKey == null ? "none" : "(hidden)") + "]";
    }
}
