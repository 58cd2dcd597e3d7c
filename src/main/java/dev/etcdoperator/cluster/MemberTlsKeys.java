package dev.etcdoperator.cluster;

/**
 * The layout of each TLS Secret a member mounts (peer, server, and the operator's client Secret that its readiness
 * probe uses), as found when the Secrets were checked.
 */
public record MemberTlsKeys(TlsSecretKeys peer, TlsSecretKeys server, TlsSecretKeys operator) {
    /** The CoreOS operator's names for every Secret. */
    public static final MemberTlsKeys COREOS = new MemberTlsKeys(TlsSecretKeys.PEER, TlsSecretKeys.SERVER,
            TlsSecretKeys.CLIENT);
}
