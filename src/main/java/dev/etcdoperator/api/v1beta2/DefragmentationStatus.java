package dev.etcdoperator.api.v1beta2;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The scheduled defragmentation rounds of a cluster ({@code spec.etcd.defragmentation.schedule}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class DefragmentationStatus {
    @JsonPropertyDescription("The schedule the times below follow.")
    private String schedule;

    @JsonPropertyDescription("When the next round is due (RFC 3339); while a round is in progress, when it was due.")
    private String nextRoundTime;

    @JsonPropertyDescription("When the round in progress defragmented its first member (RFC 3339); absent between "
            + "rounds.")
    private String roundStartTime;

    @JsonPropertyDescription("The members the round in progress has defragmented, in order.")
    private List<String> roundMembers;

    @JsonPropertyDescription("When the last round completed: every member defragmented (RFC 3339).")
    private String lastRoundCompletionTime;

    @JsonPropertyDescription("The members the last completed round defragmented, in order.")
    private List<String> lastRoundMembers;

    public String getSchedule() {
        return schedule;
    }

    public void setSchedule(String schedule) {
        this.schedule = schedule;
    }

    public String getNextRoundTime() {
        return nextRoundTime;
    }

    public void setNextRoundTime(String nextRoundTime) {
        this.nextRoundTime = nextRoundTime;
    }

    public String getRoundStartTime() {
        return roundStartTime;
    }

    public void setRoundStartTime(String roundStartTime) {
        this.roundStartTime = roundStartTime;
    }

    public List<String> getRoundMembers() {
        return roundMembers;
    }

    public void setRoundMembers(List<String> roundMembers) {
        this.roundMembers = roundMembers;
    }

    public String getLastRoundCompletionTime() {
        return lastRoundCompletionTime;
    }

    public void setLastRoundCompletionTime(String lastRoundCompletionTime) {
        this.lastRoundCompletionTime = lastRoundCompletionTime;
    }

    public List<String> getLastRoundMembers() {
        return lastRoundMembers;
    }

    public void setLastRoundMembers(List<String> lastRoundMembers) {
        this.lastRoundMembers = lastRoundMembers;
    }
}
