package com.bloceclat.common.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class ForwardedForTest {

    /** k8s/config.yaml's trusted proxies: the cluster's private ranges. */
    private static final List<ForwardedFor.Range> CLUSTER = ForwardedFor.Range.parse(
            List.of("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"));

    private static String client(String resolved, String peer, String header) {
        return ForwardedFor.client(resolved, peer, header, CLUSTER);
    }

    /**
     * Behind an Ingress that appends, a guest's own X-Forwarded-For comes first and Quarkus takes it: the client is
     * the address the Ingress saw, the last one, whatever the guest wrote before it.
     */
    @Test
    void theClientIsTheLastAddressNoTrustedProxyWroteNotTheFirst() {
        assertEquals("198.51.100.7", client("203.0.113.1", "10.1.2.3", "203.0.113.1, 198.51.100.7"));
        assertEquals("198.51.100.7", client("203.0.113.2", "10.1.2.3", "203.0.113.2,198.51.100.7"));
        // a load balancer in front of the Ingress: its private address is passed over
        assertEquals("198.51.100.7", client("203.0.113.1", "10.1.2.3", "203.0.113.1, 198.51.100.7, 10.0.0.5"));
        // an Ingress that replaces the header: one address, the client's
        assertEquals("198.51.100.7", client("198.51.100.7", "10.1.2.3", "198.51.100.7"));
        // ports and brackets are the proxies' notation, not part of the address
        assertEquals("198.51.100.7", client("x", "10.1.2.3", "1.2.3.4, 198.51.100.7:4711"));
        assertEquals("2001:db8::7", client("x", "10.1.2.3", "1.2.3.4, [2001:db8::7]:443"));
        assertEquals("2001:db8::7", client("x", "10.1.2.3", "1.2.3.4, 2001:db8::7"));
        // something that is no address is no trusted proxy's: it is the client (a key of its own, never looked up)
        assertEquals("unknown", client("x", "10.1.2.3", "198.51.100.7, unknown"));
        // every address a trusted proxy's: the first, as Quarkus says
        assertEquals("10.9.9.9", client("10.9.9.9", "10.1.2.3", "10.9.9.9, 10.0.0.5"));
    }

    /** Not forwarded (Quarkus did not trust the connection): the connection's address, whatever the header says. */
    @Test
    void anUntrustedConnectionIsItsOwnAddress() {
        assertEquals("203.0.113.50", client("203.0.113.50", "203.0.113.50", "1.1.1.1, 2.2.2.2"));
        assertEquals("203.0.113.50", client("203.0.113.50", "203.0.113.50", null));
        assertEquals("203.0.113.50", client("203.0.113.50", null, "1.1.1.1"));
        assertNull(client(null, "10.1.2.3", "1.1.1.1"));
    }

    /**
     * A guest who writes the Ingress's own address first makes Quarkus resolve the request to the connection's
     * address: the connection is still a trusted proxy's, so the header is still read from the right.
     */
    @Test
    void aFirstAddressEqualToTheProxysOwnIsNoWayOut() {
        assertEquals("198.51.100.7", client("10.1.2.3", "10.1.2.3", "10.1.2.3, 198.51.100.7"));
        // no range configured (Quarkus then trusts every proxy): forwarded when Quarkus took another address
        assertEquals("198.51.100.7", ForwardedFor.client("1.1.1.1", "10.1.2.3", "1.1.1.1, 198.51.100.7", List.of()));
        assertEquals("10.1.2.3", ForwardedFor.client("10.1.2.3", "10.1.2.3", "1.1.1.1", List.of()));
    }

    @Test
    void rangesMatchByPrefixAndIgnoreWhatIsNoAddress() {
        List<ForwardedFor.Range> ranges = ForwardedFor.Range.parse(
                List.of("10.0.0.0/8", "127.0.0.1", "2001:db8::/32", "proxy.example", "10.0.0.0/x"));
        assertEquals(3, ranges.size());
        assertTrue(ranges.get(0).contains(AddressLiteral.parse("10.255.1.2")));
        assertFalse(ranges.get(0).contains(AddressLiteral.parse("11.0.0.1")));
        assertTrue(ranges.get(1).contains(AddressLiteral.parse("127.0.0.1")));
        assertFalse(ranges.get(1).contains(AddressLiteral.parse("127.0.0.2")));
        assertTrue(ranges.get(2).contains(AddressLiteral.parse("2001:db8:ffff::1")));
        assertFalse(ranges.get(2).contains(AddressLiteral.parse("10.255.1.2")));
        assertNull(AddressLiteral.parse("proxy.example"));
        // dotted but no address: refused as it is (InetAddress would look it up in the DNS)
        assertNull(AddressLiteral.parse("256.1.1.1"));
        assertNull(AddressLiteral.parse("999.0.0.1"));
        assertArrayEquals(new byte[] {(byte) 203, 0, 113, 9}, AddressLiteral.parse("203.0.113.9"));
    }
}
