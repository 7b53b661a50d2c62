package com.bloceclat.solver.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.smallrye.stork.servicediscovery.dns.DnsConfiguration;
import io.smallrye.stork.servicediscovery.staticlist.StaticConfiguration;

class SolverDiscoveryTest {

    @Test
    void staticListFromTheReplicaUrls() {
        SolverDiscovery discovery = SolverDiscovery.of("static",
                List.of("http://localhost:8081", " http://solver-service-2:8081 "));
        assertEquals("localhost:8081,solver-service-2:8081",
                ((StaticConfiguration) discovery.serviceDiscovery()).getAddressList());
    }

    @Test
    void dnsResolvesTheOneHostNameToEveryReadyPod() {
        DnsConfiguration dns = (DnsConfiguration) SolverDiscovery.of("DNS",
                List.of("http://solver-service-pods:8081")).serviceDiscovery();
        assertEquals("solver-service-pods", dns.getHostname());
        assertEquals("8081", dns.getPort());
        assertEquals("A", dns.getRecordType());
    }

    @Test
    void refusesWhatItCannotUse() {
        assertThrows(IllegalArgumentException.class, () -> SolverDiscovery.of("static", List.of()));
        assertThrows(IllegalArgumentException.class, () -> SolverDiscovery.of("static", List.of("localhost:8081")));
        assertThrows(IllegalArgumentException.class, () -> SolverDiscovery.of("static", List.of("http://localhost")));
        assertThrows(IllegalArgumentException.class,
                () -> SolverDiscovery.of("dns", List.of("http://a:8081", "http://b:8081")));
        assertThrows(IllegalArgumentException.class, () -> SolverDiscovery.of("consul", List.of("http://a:8081")));
    }
}
