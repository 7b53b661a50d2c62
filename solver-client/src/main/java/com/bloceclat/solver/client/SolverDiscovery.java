package com.bloceclat.solver.client;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import io.smallrye.stork.Stork;
import io.smallrye.stork.api.ServiceDefinition;
import io.smallrye.stork.api.config.ConfigWithType;
import io.smallrye.stork.loadbalancer.leastresponsetime.LeastResponseTimeConfiguration;
import io.smallrye.stork.servicediscovery.dns.DnsConfiguration;
import io.smallrye.stork.servicediscovery.staticlist.StaticConfiguration;

/**
 * The Stork service {@value #SERVICE} from {@code bloc.solver.urls}: a static list of replicas locally, or one host
 * name resolved through DNS in the cluster (a headless Service gives one A record per ready pod). Instances are picked
 * by least response time, which also keeps away from a replica whose calls just failed.
 */
public record SolverDiscovery(Kind kind, List<URI> urls) {

    /** The Stork service name that {@code quarkus.rest-client.solver.url=stork://solver-service} names. */
    public static final String SERVICE = "solver-service";

    public enum Kind {
        STATIC, DNS
    }

    public SolverDiscovery {
        if (urls.isEmpty()) {
            throw new IllegalArgumentException("bloc.solver.urls names no solver-service replica");
        }
        if (kind == Kind.DNS && urls.size() != 1) {
            throw new IllegalArgumentException("DNS discovery resolves one host name; bloc.solver.urls has " + urls);
        }
        for (URI url : urls) {
            if (url.getHost() == null || url.getPort() < 0 || !"http".equals(url.getScheme())) {
                throw new IllegalArgumentException("a solver URL is http://host:port, got " + url);
            }
        }
    }

    static SolverDiscovery of(String kind, List<String> urls) {
        Kind k;
        try {
            k = Kind.valueOf(kind.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bloc.solver.discovery is static or dns, got '" + kind + "'", e);
        }
        return new SolverDiscovery(k, urls.stream().map(String::trim).filter(u -> !u.isEmpty()).map(URI::create)
                .toList());
    }

    /** What Stork reads: {@code host:port,host:port} for the static list. */
    String addressList() {
        return urls.stream().map(u -> u.getHost() + ":" + u.getPort()).collect(Collectors.joining(","));
    }

    ConfigWithType serviceDiscovery() {
        if (kind == Kind.DNS) {
            URI url = urls.get(0);
            return new DnsConfiguration().withHostname(url.getHost()).withPort(Integer.toString(url.getPort()))
                    .withRecordType("A").withRefreshPeriod("5S");
        }
        return new StaticConfiguration().withAddressList(addressList());
    }

    /** Defines the service once per JVM; a later definition with the same name is ignored by Stork. */
    void define() {
        Stork.getInstance().defineIfAbsent(SERVICE,
                ServiceDefinition.of(serviceDiscovery(), new LeastResponseTimeConfiguration()));
    }
}
