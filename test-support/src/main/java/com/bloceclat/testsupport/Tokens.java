package com.bloceclat.testsupport;

import java.net.URI;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.github.tomakehurst.wiremock.client.WireMock;

import io.smallrye.jwt.build.Jwt;

/**
 * Access tokens shaped like Keycloak's (typ Bearer, azp, subject, preferred_username, realm_access.roles), signed with
 * the key that {@code OidcWiremockTestResource} publishes, so the service checks them exactly as it checks Keycloak's.
 * A person's tokens are issued to the {@code web-ui} client, a service's to {@code bloc-services}; {@link #signed}
 * makes a token of any other shape (another client, an ID token, no subject) with the same key.
 */
public final class Tokens {

    /** The issuer that {@code OidcWiremockTestResource} announces in its discovery document. */
    public static final String ISSUER = "https://server.example.com";

    /** The client the web UI signs people in with. */
    public static final String WEB_UI = "web-ui";

    /** The client the services get their own tokens with (client credentials). */
    public static final String SERVICES = "bloc-services";

    private Tokens() {
    }

    public static String player(String name) {
        return of("sub-" + name, name, List.of("player"));
    }

    public static String admin(String name) {
        return of("sub-" + name, name, List.of("player", "admin"));
    }

    public static String of(String subject, String name, List<String> roles) {
        return issuedTo(WEB_UI, subject, name, roles);
    }

    /** A service account's token, issued to {@code bloc-services}. */
    public static String service(String subject, String name, List<String> roles) {
        return issuedTo(SERVICES, subject, name, roles);
    }

    /** An access token issued to {@code client} (Keycloak's {@code azp}). */
    public static String issuedTo(String client, String subject, String name, List<String> roles) {
        return signed(claims(client, subject, name, roles));
    }

    /** An access token's claims as Keycloak issues them to {@code client} for a user, to change and sign. */
    public static Map<String, Object> claims(String client, String subject, String name, List<String> roles) {
        Map<String, Object> claims = new HashMap<>();
        claims.put("typ", "Bearer");
        claims.put("azp", client);
        claims.put("sub", subject);
        claims.put("preferred_username", name);
        claims.put("realm_access", Map.of("roles", roles));
        return claims;
    }

    /** A token with exactly these claims (plus issuer and expiry), signed with the OIDC server's key. */
    public static String signed(Map<String, Object> claims) {
        return Jwt.claims(claims)
                .issuer(ISSUER)
                .expiresIn(300)
                .sign();
    }

    /**
     * Tokens signed by the OIDC server's key, valid in every way the signature, issuer and expiry can say, that the
     * services must still refuse with 401, each under what is wrong with it: another client of the realm
     * ({@code admin-cli}'s password grant, a client added later, none named), not an access token (an ID token, no
     * {@code typ}), no subject or a blank one. All would be {@code name}, a player, if accepted.
     */
    public static Map<String, String> notForThisSystem(String name) {
        String subject = "sub-" + name;
        List<String> roles = List.of("player");
        Map<String, String> tokens = new LinkedHashMap<>();
        tokens.put("issued to admin-cli", issuedTo("admin-cli", subject, name, roles));
        tokens.put("issued to a client added to the realm later", issuedTo("reports-app", subject, name, roles));
        Map<String, Object> noClient = claims(WEB_UI, subject, name, roles);
        noClient.remove("azp");
        tokens.put("issued to no named client", signed(noClient));
        Map<String, Object> idToken = claims(WEB_UI, subject, name, roles);
        idToken.put("typ", "ID");
        idToken.put("aud", WEB_UI);
        tokens.put("an ID token of web-ui", signed(idToken));
        Map<String, Object> noType = claims(WEB_UI, subject, name, roles);
        noType.remove("typ");
        tokens.put("a token without typ", signed(noType));
        Map<String, Object> noSubject = claims(WEB_UI, subject, name, roles);
        noSubject.remove("sub");
        tokens.put("an access token of web-ui without sub", signed(noSubject));
        Map<String, Object> blankSubject = claims(WEB_UI, subject, name, roles);
        blankSubject.put("sub", " ");
        tokens.put("an access token of web-ui with a blank sub", signed(blankSubject));
        Map<String, Object> bare = new HashMap<>(Map.of("typ", "Bearer", "azp", WEB_UI));
        tokens.put("an access token of web-ui with neither sub nor name nor roles", signed(bare));
        return tokens;
    }

    /**
     * Makes the client credentials grant of the {@code OidcWiremockTestResource} at {@code keycloakUrl} (its
     * {@code keycloak.url}) answer a token of the {@code bloc-services} service account, as Keycloak does, instead of
     * the stub's own (which names no client, so the services refuse it). The roles are in {@code realm_access.roles}
     * and, as the stub has them, in {@code groups}. Valid for an hour: longer than any test run.
     */
    public static void serveServiceGrant(String keycloakUrl, List<String> roles) {
        Map<String, Object> claims = claims(SERVICES, "sub-service-account", "service-account-bloc-services", roles);
        claims.put("groups", roles);
        String token = Jwt.claims(claims).issuer(ISSUER).expiresIn(3600).jws().keyId("1").sign("privateKey.jwk");
        URI server = URI.create(keycloakUrl);
        new WireMock(server.getHost(), server.getPort()).register(WireMock.post(WireMock.urlPathMatching(".*/token"))
                .withRequestBody(WireMock.containing("grant_type=client_credentials"))
                .atPriority(1)
                .willReturn(WireMock.okJson("{\"access_token\": \"" + token
                        + "\", \"token_type\": \"Bearer\", \"expires_in\": 3600}")));
    }

    public static String expired(String name) {
        long now = System.currentTimeMillis() / 1000;
        return Jwt.claims(claims(WEB_UI, "sub-" + name, name, List.of("player")))
                .issuer(ISSUER)
                .issuedAt(now - 3600)
                .expiresAt(now - 1800)
                .sign();
    }

    /**
     * A token signed by a key the server's key set does not have, under a key id it does not have either, which the
     * introspection endpoint of the {@code OidcWiremockTestResource} at {@code keycloakUrl} is made to call active: an
     * access token of admin-cli, a client the services refuse, with the admin role. A service that falls back to
     * introspection for a key id it does not know took it, and checked nothing of it but what the answer said.
     */
    public static String introspectedOnly(String keycloakUrl) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            long exp = System.currentTimeMillis() / 1000 + 3600;
            Map<String, Object> claims = claims("admin-cli", "sub-refresh", "refresh", List.of("player", "admin"));
            claims.put("typ", "Bearer");
            String token = Jwt.claims(claims).issuer(ISSUER).expiresAt(exp).jws().keyId("not-published")
                    .sign(generator.generateKeyPair().getPrivate());
            URI server = URI.create(keycloakUrl);
            new WireMock(server.getHost(), server.getPort()).register(WireMock.post(WireMock.urlPathMatching(
                    ".*/introspect")).withRequestBody(WireMock.containing(token)).atPriority(1)
                    .willReturn(WireMock.okJson("{\"active\": true, \"typ\": \"Bearer\", \"azp\": \"admin-cli\", "
                            + "\"sub\": \"sub-refresh\", \"username\": \"refresh\", \"iss\": \"" + ISSUER
                            + "\", \"exp\": " + exp + ", \"realm_access\": {\"roles\": [\"player\", \"admin\"]}}")));
            return token;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A well-formed token signed by a key the server does not know. */
    public static String forged(String name) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return Jwt.claims(claims(WEB_UI, "sub-" + name, name, List.of("player", "admin")))
                    .issuer(ISSUER)
                    .expiresIn(300)
                    .jws().keyId("1")
                    .sign(generator.generateKeyPair().getPrivate());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
