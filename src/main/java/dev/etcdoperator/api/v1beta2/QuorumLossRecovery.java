package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;

/**
 * Additive: what the operator does once a majority of the cluster's members is lost for good. Absent means
 * {@link #MANUAL}: it waits for a person, and says in the status exactly what to do.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class QuorumLossRecovery {
    /** Wait for a person; the recover-quorum annotation approves one recovery from the survivor. */
    public static final String MANUAL = "Manual";
    /** Restart the newest surviving member's data as a one-member cluster, then grow back. */
    public static final String FROM_SURVIVOR = "FromSurvivor";
    /** Create an EtcdRestore from the newest successful backup of the cluster. */
    public static final String FROM_BACKUP = "FromBackup";
    public static final int DEFAULT_GRACE_PERIOD_SECONDS = 60;

    @Pattern("^(Manual|FromSurvivor|FromBackup)$")
    @JsonPropertyDescription("Manual (the default: wait for a person, the QuorumRecovery condition says what to do), "
            + "FromSurvivor (the surviving member with the newest data becomes a one-member cluster, which grows back "
            + "to spec.size; writes only the lost members had are lost) or FromBackup (an EtcdRestore from the newest "
            + "successful backup of this cluster; writes after that backup are lost).")
    private String policy;

    @Min(InputRules.MIN_QUORUM_LOSS_GRACE_SECONDS)
    @Max(InputRules.MAX_QUORUM_LOSS_GRACE_SECONDS)
    @JsonPropertyDescription("How long quorum must have been lost, with a majority of the members lost for good, "
            + "before a recovery starts: 10 to 86400 seconds. Default 60.")
    private Integer gracePeriodSeconds;

    public String getPolicy() {
        return policy;
    }

    public void setPolicy(String policy) {
        this.policy = policy;
    }

    public Integer getGracePeriodSeconds() {
        return gracePeriodSeconds;
    }

    public void setGracePeriodSeconds(Integer gracePeriodSeconds) {
        this.gracePeriodSeconds = gracePeriodSeconds;
    }

    public String policyOrDefault() {
        return policy == null ? MANUAL : policy;
    }

    public int gracePeriodSecondsOrDefault() {
        return gracePeriodSeconds == null ? DEFAULT_GRACE_PERIOD_SECONDS : gracePeriodSeconds;
    }
}
