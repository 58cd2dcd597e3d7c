package dev.etcdoperator.core.validation;

import java.util.regex.Pattern;

import dev.etcdoperator.api.v1beta2.EtcdClusterSpec;
import dev.etcdoperator.api.v1beta2.MemberSecret;
import dev.etcdoperator.api.v1beta2.PodPolicy;
import dev.etcdoperator.api.v1beta2.SemVer;
import dev.etcdoperator.api.v1beta2.StaticTls;

/**
 * The operator's own check of an EtcdCluster spec: the rules the CRD schema states, again, because schema
 * validation can be bypassed or absent.
 */
public final class ClusterSpecValidator {
    public static final int MIN_SIZE = 1;
    public static final int MAX_SIZE = 7;
    private static final Pattern SEMVER = Pattern.compile(SemVer.PATTERN);

    public Validation validate(EtcdClusterSpec spec) {
        Checks checks = new Checks();
        if (spec == null) {
            checks.fail("spec", "Required value");
            return checks.result();
        }
        if (spec.getSize() == null) {
            checks.fail("spec.size", "Required value");
        } else if (spec.getSize() < MIN_SIZE || spec.getSize() > MAX_SIZE) {
            checks.fail("spec.size", "must be between " + MIN_SIZE + " and " + MAX_SIZE + ", got " + spec.getSize());
        }
        if (spec.getVersion() != null && !SEMVER.matcher(spec.getVersion()).matches()) {
            checks.fail("spec.version", "must be a semantic version such as 3.5.17, got '" + spec.getVersion() + "'");
        }
        if (spec.getRepository() != null && spec.getRepository().isBlank()) {
            checks.fail("spec.repository", "must not be blank");
        }
        pod(checks, spec.getPod());
        tls(checks, spec.getTls() == null ? null : spec.getTls().getStaticTls());
        return checks.result();
    }

    private void pod(Checks checks, PodPolicy pod) {
        if (pod == null) {
            return;
        }
        if (pod.getLabels() != null) {
            pod.getLabels().keySet().stream()
                    .filter(key -> key.equals("app") || key.startsWith("etcd_"))
                    .sorted()
                    .forEach(key -> checks.fail("spec.pod.labels",
                            "label '" + key + "' is reserved for the operator ('app' and 'etcd_*')"));
        }
        checks.requireNonNegative("spec.pod.DNSTimeoutInSecond", pod.getDnsTimeoutInSecond());
        String retention = pod.getPersistentVolumeClaimRetention();
        if (retention != null && !retention.equals("Delete") && !retention.equals("Retain")) {
            checks.fail("spec.pod.persistentVolumeClaimRetention",
                    "Unsupported value: \"" + retention + "\": supported values: \"Delete\", \"Retain\"");
        }
    }

    private void tls(Checks checks, StaticTls tls) {
        if (tls == null) {
            return;
        }
        MemberSecret member = tls.getMember();
        if (tls.getOperatorSecret() != null && (member == null || checks.blank(member.getServerSecret()))) {
            checks.fail("spec.TLS.static", "operatorSecret requires member.serverSecret");
        }
        if (tls.getOperatorSecret() != null) {
            checks.requireName("spec.TLS.static.operatorSecret", tls.getOperatorSecret());
        }
        if (member != null) {
            if (member.getPeerSecret() != null) {
                checks.requireName("spec.TLS.static.member.peerSecret", member.getPeerSecret());
            }
            if (member.getServerSecret() != null) {
                checks.requireName("spec.TLS.static.member.serverSecret", member.getServerSecret());
            }
        }
    }
}
