package com.bloceclat.common.security;

import java.util.ArrayList;
import java.util.List;

/**
 * The client's address behind trusted proxies, from {@code X-Forwarded-For}. Quarkus, once it trusts the proxy that
 * connected ({@code quarkus.http.proxy.trusted-proxies}), takes the header's <em>first</em> address, which the client
 * itself may have written: a proxy that appends to the header (ingress-nginx with {@code compute-full-forwarded-for},
 * Envoy, most cloud load balancers) forwards {@code "<what the client sent>, <the client's address>"}, so a guest could
 * pick a new address, and a new budget of every per-client limit, with each request. This takes the last address
 * that no trusted proxy wrote instead: read from the right, the addresses of trusted proxies are passed over, and the
 * first other one is the address the nearest trusted proxy saw connect. A pure function, tested alone.
 */
final class ForwardedFor {

    /**
     * A trusted range: an address literal, or one with a prefix length ({@code 10.0.0.0/8}). Hostnames and ports,
     * which Quarkus also takes, are not understood here and match nothing: a proxy trusted by name is taken for the
     * client (all its guests one key). k8s/config.yaml trusts ranges.
     */
    record Range(byte[] network, int prefix) {

        static List<Range> parse(List<String> entries) {
            List<Range> ranges = new ArrayList<>();
            for (String entry : entries) {
                String e = entry.strip();
                int slash = e.indexOf('/');
                byte[] address = AddressLiteral.parse(slash < 0 ? e : e.substring(0, slash));
                if (address == null) {
                    continue;
                }
                int prefix = address.length * 8;
                if (slash >= 0) {
                    try {
                        prefix = Math.min(prefix, Integer.parseInt(e.substring(slash + 1)));
                    } catch (NumberFormatException bad) {
                        continue;
                    }
                }
                ranges.add(new Range(address, prefix));
            }
            return ranges;
        }

        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            for (int bit = 0; bit < prefix; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((address[bit / 8] & mask) != (network[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }

    private ForwardedFor() {
    }

    /**
     * @param resolved  the address Quarkus gives the request (the forwarded one when it trusted the proxy)
     * @param peer      the address of the connection itself
     * @param forwarded the {@code X-Forwarded-For} header's lines joined by commas, or null
     * @param trusted   the trusted proxies' ranges
     * @return the client's address: {@code resolved} unless the connection is a trusted proxy's (in {@code trusted},
     *         or, with no range configured, one Quarkus took the header from), then the right-most address of the
     *         header that is no trusted proxy's (the first one if all are)
     */
    static String client(String resolved, String peer, String forwarded, List<Range> trusted) {
        if (forwarded == null || peer == null || resolved == null) {
            return resolved;
        }
        byte[] peerAddress = AddressLiteral.parse(peer);
        boolean fromProxy = peerAddress != null && trusted.stream().anyMatch(r -> r.contains(peerAddress))
                || trusted.isEmpty() && !resolved.equals(peer);
        if (!fromProxy) {
            return resolved; // not forwarded: the connection's own address, whatever the header says
        }
        String[] hops = forwarded.split(",");
        for (int i = hops.length - 1; i >= 0; i--) {
            String hop = host(hops[i].strip());
            if (hop.isEmpty()) {
                continue;
            }
            byte[] address = AddressLiteral.parse(hop);
            if (address == null || trusted.stream().noneMatch(r -> r.contains(address))) {
                return hop;
            }
        }
        return resolved;
    }

    /** An entry without its port: {@code [2001:db8::1]:443} and {@code 203.0.113.9:80} give the address. */
    private static String host(String hop) {
        if (hop.startsWith("[")) {
            int end = hop.indexOf(']');
            return end < 0 ? hop : hop.substring(1, end);
        }
        int colon = hop.indexOf(':');
        return colon >= 0 && colon == hop.lastIndexOf(':') ? hop.substring(0, colon) : hop;
    }
}
