package com.bloceclat.common.security;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * An IP address literal read into its bytes, never looked up in the DNS (an IPv6 text that is no address is refused
 * by {@link InetAddress} without a lookup; IPv4 is read here): the one parser behind {@link ClientKey}
 * and {@link ForwardedFor}. An IPv6 zone ({@code %eth0}) is dropped, so that it cannot make one address many; an
 * IPv4 address mapped into IPv6 reads as the IPv4 address (four bytes).
 */
final class AddressLiteral {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]+(%[0-9A-Za-z._-]+)?");

    private AddressLiteral() {
    }

    /** Whether {@code text} is written as an IPv6 literal (its characters only; it may still not parse). */
    static boolean ipv6Syntax(String text) {
        return text.indexOf(':') >= 0 && IPV6.matcher(text).matches();
    }

    /** The address's bytes (4 or 16), or null for anything that is not an address literal. */
    static byte[] parse(String text) {
        if (text == null) {
            return null;
        }
        String address;
        if (IPV4.matcher(text).matches()) {
            // read here: InetAddress looks a dotted text that is no address (256.1.1.1) up in the DNS
            String[] parts = text.split("\\.");
            byte[] bytes = new byte[4];
            for (int i = 0; i < 4; i++) {
                int octet = Integer.parseInt(parts[i]);
                if (octet > 255) {
                    return null;
                }
                bytes[i] = (byte) octet;
            }
            return bytes;
        } else if (ipv6Syntax(text)) {
            int zone = text.indexOf('%');
            address = zone < 0 ? text : text.substring(0, zone);
        } else {
            return null;
        }
        try {
            return InetAddress.getByName(address).getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
