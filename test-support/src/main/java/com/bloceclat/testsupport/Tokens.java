package com.bloceclat.testsupport;

import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;

import io.smallrye.jwt.build.Jwt;

/**
 * Access tokens shaped like Keycloak's (subject, preferred_username, realm_access.roles), signed with the key that
 * {@code OidcWiremockTestResource} publishes, so the service checks them exactly as it checks Keycloak's.
 */
public final class Tokens {

    /** The issuer that {@code OidcWiremockTestResource} announces in its discovery document. */
    public static final String ISSUER = "https://server.example.com";

    private Tokens() {
    }

    public static String player(String name) {
        return of("sub-" + name, name, List.of("player"));
    }

    public static String admin(String name) {
        return of("sub-" + name, name, List.of("player", "admin"));
    }

    public static String of(String subject, String name, List<String> roles) {
        return Jwt.subject(subject)
                .preferredUserName(name)
                .claim("realm_access", Map.of("roles", roles))
                .issuer(ISSUER)
                .expiresIn(300)
                .sign();
    }

    public static String expired(String name) {
        long now = System.currentTimeMillis() / 1000;
        return Jwt.subject("sub-" + name)
                .preferredUserName(name)
                .claim("realm_access", Map.of("roles", List.of("player")))
                .issuer(ISSUER)
                .issuedAt(now - 3600)
                .expiresAt(now - 1800)
                .sign();
    }

    /** A well-formed token signed by a key the server does not know. */
    public static String forged(String name) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return Jwt.subject("sub-" + name)
                    .preferredUserName(name)
                    .claim("realm_access", Map.of("roles", List.of("player", "admin")))
                    .issuer(ISSUER)
                    .expiresIn(300)
                    .jws().keyId("1")
                    .sign(generator.generateKeyPair().getPrivate());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
