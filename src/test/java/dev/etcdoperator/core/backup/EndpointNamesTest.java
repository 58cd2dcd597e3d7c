package dev.etcdoperator.core.backup;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EndpointNamesTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "http://example-client:2379, http://example-client.team-a.svc:2379",
            "https://example-client:2379, https://example-client.team-a.svc:2379",
            "example-client:2379, http://example-client.team-a.svc:2379",
            "' http://example-client:2379 ', http://example-client.team-a.svc:2379",
            "http://example-client, http://example-client.team-a.svc",
            "http://example-client.team-b.svc:2379, http://example-client.team-b.svc:2379",
            "http://example-client.team-b:2379, http://example-client.team-b:2379",
            "https://etcd.example.com:2379, https://etcd.example.com:2379",
            "http://10.0.0.7:2379, http://10.0.0.7:2379",
            "http://[fd00::7]:2379, http://[fd00::7]:2379",
            "http://localhost:2379, http://localhost:2379",
            "http://LOCALHOST:2379, http://LOCALHOST:2379",
    })
    void aShortServiceNameMeansTheBackupsOwnNamespace(String endpoint, String connectedTo) {
        assertThat(EndpointNames.resolve(endpoint, "team-a")).isEqualTo(connectedTo);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"http://team-a:2379, http://team-a.team-a.svc:2379"})
    void aHostNamedLikeTheNamespaceIsQualifiedOnce(String endpoint, String connectedTo) {
        assertThat(EndpointNames.resolve(endpoint, "team-a")).isEqualTo(connectedTo);
    }
}
