package com.bloceclat.common.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class ClientKeyTest {

    /** A guest rotating through their /64 stays one client (each address used to be a budget of its own). */
    @Test
    void anIpv6GuestIsOneClientAcrossTheirSlash64() {
        String one = ClientKey.ofAddress("2001:db8:1234:5678::1");
        assertEquals("address:2001:db8:1234:5678::/64", one);
        assertEquals(one, ClientKey.ofAddress("2001:db8:1234:5678:a1b2:c3d4:e5f6:7788"));
        assertEquals(one, ClientKey.ofAddress("2001:0db8:1234:5678:0:0:0:ffff"));
        assertNotEquals(one, ClientKey.ofAddress("2001:db8:1234:5679::1"));
    }

    @Test
    void anIpv4AddressIsItsOwnClientAlsoWhenMappedIntoIpv6() {
        assertEquals("address:203.0.113.9", ClientKey.ofAddress("203.0.113.9"));
        assertEquals("address:203.0.113.9", ClientKey.ofAddress("::ffff:203.0.113.9"));
        assertNotEquals(ClientKey.ofAddress("203.0.113.9"), ClientKey.ofAddress("203.0.113.10"));
    }

    @Test
    void noAddressIsUnknownAndAPlayerIsTheirSubject() {
        assertEquals("address:unknown", ClientKey.ofAddress(null));
        assertEquals("subject:abc", ClientKey.ofSubject("abc"));
    }

    /** Only a literal address is parsed: anything else is its own key as it is, and never looked up in the DNS. */
    @Test
    void whatIsNotALiteralAddressIsKeptAsItIs() {
        assertEquals("address:g::1", ClientKey.ofAddress("g::1"));
        assertEquals("address:host.example:80", ClientKey.ofAddress("host.example:80"));
        assertEquals("address:invalid", ClientKey.ofAddress("1:::2:::3"));
        assertEquals("address:invalid", ClientKey.ofAddress("1:::2:::4"));
        // a text no address is, longer than a host name or not printable, is one client; it made a key of any length
        assertEquals("address:invalid", ClientKey.ofAddress("x".repeat(400)));
        assertEquals("address:invalid", ClientKey.ofAddress("x".repeat(65)));
        assertEquals("address:" + "x".repeat(64), ClientKey.ofAddress("x".repeat(64)));
        assertEquals("address:invalid", ClientKey.ofAddress("caf\u00e9"));
        assertEquals("address:invalid", ClientKey.ofAddress("a b"));
        // a zone names no other client: dropped, whatever interface it names (one that does not exist too)
        assertEquals(ClientKey.ofAddress("2001:db8::1"), ClientKey.ofAddress("2001:db8::1%nosuchif"));
        assertEquals(ClientKey.ofAddress("2001:db8::1"), ClientKey.ofAddress("2001:db8::1%a2"));
    }
}
