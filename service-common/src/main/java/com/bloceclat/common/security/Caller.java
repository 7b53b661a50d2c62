package com.bloceclat.common.security;

import java.util.List;

import org.eclipse.microprofile.jwt.JsonWebToken;

import io.quarkus.security.identity.SecurityIdentity;

/**
 * Who is calling, as the services show it: the token's subject (the stable player id), a display name and the
 * realm roles.
 */
public record Caller(String subject, String name, List<String> roles) {

    public static Caller of(SecurityIdentity identity) {
        String subject = identity.getPrincipal().getName();
        String name = subject;
        if (identity.getPrincipal() instanceof JsonWebToken jwt) {
            if (jwt.getSubject() != null) {
                subject = jwt.getSubject();
            }
            String preferred = jwt.getClaim("preferred_username");
            name = preferred != null ? preferred : jwt.getName();
        }
        return new Caller(subject, name, identity.getRoles().stream().sorted().toList());
    }
}
