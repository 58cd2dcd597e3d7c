package dev.etcdoperator.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** Which changes of the TLS Secrets members can be rolled onto one at a time. */
class TlsMaterialTest {
    private static final TlsMaterial OLD = new TlsMaterial("f0", Set.of("old"), Set.of("old"));

    @Test
    void aCaChangeInThreePassesIsSafeAtEveryPass() {
        TlsMaterial bothTrusted = new TlsMaterial("f1", Set.of("old", "new"), Set.of("old"));
        assertThat(bothTrusted.unsafeChangeFrom(Map.of("a", OLD, "b", OLD))).isEmpty();
        TlsMaterial newCertificates = new TlsMaterial("f2", Set.of("old", "new"), Set.of("new"));
        // midway: a already restarted onto pass 1, b not yet
        assertThat(newCertificates.unsafeChangeFrom(Map.of("a", bothTrusted, "b", bothTrusted))).isEmpty();
        TlsMaterial oldDropped = new TlsMaterial("f3", Set.of("new"), Set.of("new"));
        assertThat(oldDropped.unsafeChangeFrom(Map.of("a", newCertificates, "b", oldDropped))).isEmpty();
        // a renewal under the same CA
        assertThat(new TlsMaterial("f4", Set.of("old"), Set.of("old")).unsafeChangeFrom(Map.of("a", OLD))).isEmpty();
    }

    @Test
    void aNewCaInOneStepOrPassesSkippedAreUnsafe() {
        TlsMaterial swapped = new TlsMaterial("f9", Set.of("new"), Set.of("new"));
        assertThat(swapped.unsafeChangeFrom(Map.of("demo-a", OLD))).hasValueSatisfying(m -> assertThat(m)
                .contains("member demo-a trusts only CA old, not CA new that issued the new certificates"));
        // new certificates before every member trusts the new CA
        TlsMaterial early = new TlsMaterial("f2", Set.of("old", "new"), Set.of("new"));
        assertThat(early.unsafeChangeFrom(Map.of("demo-a", OLD))).isPresent();
        // the old CA dropped while a member still presents a certificate of it
        TlsMaterial dropped = new TlsMaterial("f3", Set.of("new"), Set.of("new"));
        TlsMaterial bothTrustedOldCertificate = new TlsMaterial("f1", Set.of("old", "new"), Set.of("old"));
        assertThat(dropped.unsafeChangeFrom(Map.of("demo-b", bothTrustedOldCertificate))).hasValueSatisfying(
                m -> assertThat(m).contains("member demo-b presents certificates of CA old, which the new CA bundles"
                        + " no longer trust"));
    }

    @Test
    void podsOnTheCurrentMaterialOrThatDoNotSayWhatTheyTrustAreLeftOut() {
        TlsMaterial swapped = new TlsMaterial("f9", Set.of("new"), Set.of("new"));
        assertThat(swapped.unsafeChangeFrom(Map.of("a", new TlsMaterial("f9", Set.of("new"), Set.of("new")),
                "b", new TlsMaterial("f0", Set.of(), Set.of())))).isEmpty();
    }
}
