package dev.etcdoperator.core.backup;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * An {@code etcdEndpoints} entry as the backup connects to it. A short Service name ({@code http://example-client:2379})
 * means a Service of the EtcdBackup's own namespace, as it would for a pod there; the operator runs in another
 * namespace, where the name would resolve to another Service or none, so it is qualified with
 * {@code .<namespace>.svc}. Names with a dot, IP addresses and {@code localhost} are used as written.
 */
public final class EndpointNames {
    private EndpointNames() {
    }

    public static String resolve(String endpoint, String namespace) {
        String e = endpoint.strip();
        String url = e.contains("://") ? e : "http://" + e;
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException ex) {
            return url;
        }
        String host = uri.getHost();
        if (host == null || host.contains(".") || host.contains(":") || host.startsWith("[")
                || host.toLowerCase(Locale.ROOT).equals("localhost")) {
            return url;
        }
        String qualified = host + "." + namespace + ".svc";
        int at = url.indexOf(host, url.indexOf("://") + 3);
        return url.substring(0, at) + qualified + url.substring(at + host.length());
    }
}
