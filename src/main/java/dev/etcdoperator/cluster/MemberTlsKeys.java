package dev.etcdoperator.cluster;

import dev.etcdoperator.core.cluster.TlsMaterial;

/**
 * What a member is started on from its TLS Secrets: the layout of each Secret it mounts (peer, server, and the
 * operator's client Secret that its readiness probe uses), as found when the Secrets were checked, and what their
 * content is (null without TLS), which the member's pod records so that a later change of the Secrets shows.
 */
public record MemberTlsKeys(TlsSecretKeys peer, TlsSecretKeys server, TlsSecretKeys operator, TlsMaterial material) {
    /** The CoreOS operator's names for every Secret. */
    public static final MemberTlsKeys COREOS = new MemberTlsKeys(TlsSecretKeys.PEER, TlsSecretKeys.SERVER,
            TlsSecretKeys.CLIENT);

    /** Without the content. */
    public MemberTlsKeys(TlsSecretKeys peer, TlsSecretKeys server, TlsSecretKeys operator) {
        this(peer, server, operator, null);
    }

    /** The content's fingerprint, or null. */
    public String fingerprint() {
        return material == null ? null : material.fingerprint();
    }
}
