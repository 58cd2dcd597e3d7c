package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** What the source member said about its keyspace at the revision of the last successful backup. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BackupKeyspace {
    @JsonPropertyDescription("The revision read.")
    private Long revision;

    @JsonProperty("hashKV")
    @JsonPropertyDescription("etcd's HashKV at that revision; absent when the revision was compacted.")
    private Long hashKV;

    @JsonPropertyDescription("The compaction revision HashKV reported (the hash covers the history after it).")
    private Long compactRevision;

    @JsonPropertyDescription("The number of keys at that revision; absent when the revision was compacted.")
    private Long keyCount;

    public Long getRevision() {
        return revision;
    }

    public void setRevision(Long revision) {
        this.revision = revision;
    }

    @JsonProperty("hashKV")
    public Long getHashKV() {
        return hashKV;
    }

    @JsonProperty("hashKV")
    public void setHashKV(Long hashKV) {
        this.hashKV = hashKV;
    }

    public Long getCompactRevision() {
        return compactRevision;
    }

    public void setCompactRevision(Long compactRevision) {
        this.compactRevision = compactRevision;
    }

    public Long getKeyCount() {
        return keyCount;
    }

    public void setKeyCount(Long keyCount) {
        this.keyCount = keyCount;
    }
}
