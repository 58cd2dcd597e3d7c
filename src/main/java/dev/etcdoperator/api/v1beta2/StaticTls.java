package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.operatorSecret) || (has(self.member) && has(self.member.serverSecret))",
        message = "operatorSecret requires member.serverSecret")
public class StaticTls {

    @JsonPropertyDescription("Secrets of the members' peer and server certificates.")
    private MemberSecret member;

    @Pattern(ResourceName.PATTERN)
    @Size(max = InputRules.NAME_MAX_LENGTH)
    @JsonPropertyDescription("Secret with the operator's client certificate for its etcd calls; requires member.serverSecret.")
    private String operatorSecret;

    public MemberSecret getMember() {
        return member;
    }

    public void setMember(MemberSecret member) {
        this.member = member;
    }

    public String getOperatorSecret() {
        return operatorSecret;
    }

    public void setOperatorSecret(String operatorSecret) {
        this.operatorSecret = operatorSecret;
    }
}
