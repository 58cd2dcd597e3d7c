package dev.etcdoperator.etcd;

/**
 * An alarm etcd holds for one member (etcd's Maintenance.Alarm list). Alarms are cluster-wide state: every member
 * reports all of them.
 *
 * @param memberId the member that raised it
 * @param type     {@link #NOSPACE}, {@code CORRUPT}, or the number of a type this client does not know
 */
public record Alarm(long memberId, String type) {
    /** The member's database reached its quota: etcd refuses writes until the alarm is disarmed. */
    public static final String NOSPACE = "NOSPACE";
}
