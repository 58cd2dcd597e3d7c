package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

/**
 * Additive: defragment members whose database file holds much free space, one member at a time, followers first and
 * the leader last. Present means on; each threshold left out takes its default.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Defragmentation {
    public static final long DEFAULT_MIN_FRAGMENTED_BYTES = 100L << 20;
    public static final int DEFAULT_MIN_FRAGMENTED_PERCENT = 50;

    @Min(InputRules.MIN_FRAGMENTED_BYTES)
    @Max(InputRules.MAX_FRAGMENTED_BYTES)
    @JsonPropertyDescription("A member is defragmented once the free space in its database file (its size less the "
            + "bytes in use) reaches this many bytes, and minFragmentedPercent of the file: 1048576 (1 MiB) to "
            + "8589934592 (8 GiB). Default 104857600 (100 MiB).")
    private Long minFragmentedBytes;

    @Min(InputRules.MIN_FRAGMENTED_PERCENT)
    @Max(InputRules.MAX_FRAGMENTED_PERCENT)
    @JsonPropertyDescription("A member is defragmented once the free space in its database file reaches this share "
            + "of the file, in percent (1 to 100), and minFragmentedBytes. Default 50.")
    private Integer minFragmentedPercent;

    public Long getMinFragmentedBytes() {
        return minFragmentedBytes;
    }

    public void setMinFragmentedBytes(Long minFragmentedBytes) {
        this.minFragmentedBytes = minFragmentedBytes;
    }

    public Integer getMinFragmentedPercent() {
        return minFragmentedPercent;
    }

    public void setMinFragmentedPercent(Integer minFragmentedPercent) {
        this.minFragmentedPercent = minFragmentedPercent;
    }

    public long minFragmentedBytesOrDefault() {
        return minFragmentedBytes == null ? DEFAULT_MIN_FRAGMENTED_BYTES : minFragmentedBytes;
    }

    public int minFragmentedPercentOrDefault() {
        return minFragmentedPercent == null ? DEFAULT_MIN_FRAGMENTED_PERCENT : minFragmentedPercent;
    }
}
