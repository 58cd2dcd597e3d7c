package dev.etcdoperator.core.cluster;

/**
 * An alarm etcd holds for one member.
 *
 * @param memberId the member that raised it
 * @param type     {@link #NOSPACE}, {@link #CORRUPT}, or a type the operator does not know
 */
public record MemberAlarm(long memberId, String type) {
    /** The member's database reached its quota: the cluster refuses writes until the alarm is disarmed. */
    public static final String NOSPACE = "NOSPACE";
    /** The member's data differs from the others'. */
    public static final String CORRUPT = "CORRUPT";

    public boolean noSpace() {
        return NOSPACE.equals(type);
    }

    public boolean corrupt() {
        return CORRUPT.equals(type);
    }
}
