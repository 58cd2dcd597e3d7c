package dev.etcdoperator.core.cluster;

/**
 * When a member is worth defragmenting although its database is not full ({@code spec.etcd.defragmentation}): its
 * free space (file size less bytes in use) reaches both {@code minBytes} and {@code minPercent} of the file.
 */
public record FragmentationThreshold(long minBytes, int minPercent) {
    public FragmentationThreshold {
        if (minBytes < 0 || minPercent < 0 || minPercent > 100) {
            throw new IllegalArgumentException("threshold out of range: " + minBytes + " bytes, " + minPercent + "%");
        }
    }

    /** Whether a member with these sizes passes it; never when etcd does not report the bytes in use. */
    public boolean passedBy(MemberHealth h) {
        long fragmented = h.fragmentedBytes();
        return h.dbSizeInUse() > 0 && fragmented > 0 && fragmented >= minBytes
                && fragmented * 100 >= (long) minPercent * h.dbSize();
    }

    public String describe() {
        return minBytes + " bytes and " + minPercent + "% of the file";
    }
}
