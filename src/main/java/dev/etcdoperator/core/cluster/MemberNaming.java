package dev.etcdoperator.core.cluster;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.random.RandomGenerator;

/**
 * Names and addresses of a cluster's members, as the original operator laid them out: member {@code m} of cluster
 * {@code c} in namespace {@code ns} is the pod {@code m}, reachable at {@code m.c.ns.svc<clusterDomain>}, peer
 * port 2380, client port 2379; new member names are {@code <cluster>-<10 lowercase alphanumerics>}.
 *
 * @param clusterDomain appended after {@code .svc}; a missing leading dot is added, null or blank means none
 */
public record MemberNaming(String cluster, String namespace, String clusterDomain, boolean tls) {
    public static final int CLIENT_PORT = 2379;
    public static final int PEER_PORT = 2380;
    public static final int SUFFIX_LENGTH = 10;
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    public MemberNaming {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(namespace, "namespace");
        String domain = clusterDomain == null ? "" : clusterDomain.strip();
        clusterDomain = domain.isEmpty() || domain.startsWith(".") ? domain : "." + domain;
    }

    public MemberNaming(String cluster, String namespace) {
        this(cluster, namespace, "", false);
    }

    /** A fresh member name; the caller checks it is not taken. */
    public String newMemberName(RandomGenerator random) {
        StringBuilder name = new StringBuilder(cluster.length() + 1 + SUFFIX_LENGTH).append(cluster).append('-');
        for (int i = 0; i < SUFFIX_LENGTH; i++) {
            name.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return name.toString();
    }

    /**
     * True for names of the form {@code <cluster>-<suffix>} that are DNS labels: a member's name is its pod's host
     * name and a label value (a pod or claim named otherwise, e.g. {@code <cluster>-a.b}, is no member's).
     */
    public boolean isMemberName(String name) {
        return name != null && name.length() > cluster.length() + 1 && name.startsWith(cluster + "-")
                && DNS_LABEL.matcher(name).matches();
    }

    public String dnsName(String member) {
        return member + "." + cluster + "." + namespace + ".svc" + clusterDomain;
    }

    public String peerUrl(String member) {
        return scheme() + dnsName(member) + ":" + PEER_PORT;
    }

    public String clientUrl(String member) {
        return scheme() + dnsName(member) + ":" + CLIENT_PORT;
    }

    /** The client Service, {@code <cluster>-client}. */
    public String clientServiceName() {
        return cluster + "-client";
    }

    /** The headless peer Service, named as the cluster. */
    public String peerServiceName() {
        return cluster;
    }

    /**
     * The member name a peer URL was made for, when it is one of this cluster's peer URLs (either scheme); this
     * is how a member that was added but never started, and so has no name yet, is matched to its pod.
     */
    public Optional<String> memberOfPeerUrl(String peerUrl) {
        if (peerUrl == null) {
            return Optional.empty();
        }
        String rest;
        if (peerUrl.startsWith("http://")) {
            rest = peerUrl.substring("http://".length());
        } else if (peerUrl.startsWith("https://")) {
            rest = peerUrl.substring("https://".length());
        } else {
            return Optional.empty();
        }
        String suffix = "." + cluster + "." + namespace + ".svc" + clusterDomain + ":" + PEER_PORT;
        if (!rest.endsWith(suffix)) {
            return Optional.empty();
        }
        String member = rest.substring(0, rest.length() - suffix.length());
        return isMemberName(member) && !member.contains(".") && !member.contains("/")
                ? Optional.of(member) : Optional.empty();
    }

    private String scheme() {
        return tls ? "https://" : "http://";
    }
}
