package com.bloceclat.common.security;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which bearer tokens the services accept, decided from a token's claims once its signature, issuer and expiry have
 * been checked (Quarkus OIDC does that first). A token is accepted only if all three hold:
 * <ul>
 * <li>{@code typ} is {@code Bearer}: a Keycloak access token. ID tokens ({@code typ: ID}), refresh and logout tokens
 * are refused, so a token meant for a client's own use does not open the APIs;</li>
 * <li>{@code azp}, the client the token was issued to, is one of this system's clients ({@code bloc.auth.clients},
 * by default {@code web-ui} and {@code bloc-services}). A token Keycloak issues to any other client of the realm
 * ({@code admin-cli}, a client added later) is refused, whoever the user is;</li>
 * <li>{@code sub} is a non-blank string: every caller the services see has a stable subject.</li>
 * </ul>
 * What it does not guarantee: that the person behind an accepted token is who they claim (that is Keycloak's login),
 * nor anything about a token of a listed client stolen from its holder.
 */
public final class TokenPolicy {

    /** The clients of this system when nothing else is configured. */
    public static final List<String> DEFAULT_CLIENTS = List.of("web-ui", "bloc-services");

    /** The only {@code typ} an access token of Keycloak carries. */
    public static final String ACCESS_TOKEN_TYPE = "Bearer";

    /** Why a token is refused; the names are bounded, so they can tag a metric. */
    public enum Reason {
        NOT_AN_ACCESS_TOKEN, OTHER_CLIENT, NO_SUBJECT
    }

    /** A refusal: its reason and a sentence saying what was wrong with the token. */
    public record Refusal(Reason reason, String detail) {
    }

    private final Set<String> clients;

    private TokenPolicy(Set<String> clients) {
        this.clients = clients;
    }

    /** The policy accepting tokens issued to {@code clients} (blank entries ignored; at least one is needed). */
    public static TokenPolicy of(Collection<String> clients) {
        Set<String> names = clients.stream().map(String::strip).filter(c -> !c.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
        if (names.isEmpty()) {
            throw new IllegalArgumentException("bloc.auth.clients: at least one client id is needed");
        }
        return new TokenPolicy(names);
    }

    public Set<String> clients() {
        return clients;
    }

    /** Empty when the token with these claims is accepted; otherwise the first rule it breaks. */
    public Optional<Refusal> check(Map<String, Object> claims) {
        Object typ = claims.get("typ");
        if (!ACCESS_TOKEN_TYPE.equals(typ)) {
            return Optional.of(new Refusal(Reason.NOT_AN_ACCESS_TOKEN,
                    "not an access token (typ " + shown(typ) + ", expected " + ACCESS_TOKEN_TYPE + ")"));
        }
        Object azp = claims.get("azp");
        if (!(azp instanceof String client) || !clients.contains(client)) {
            return Optional.of(new Refusal(Reason.OTHER_CLIENT,
                    "issued to client " + shown(azp) + ", not to one of this system's clients"));
        }
        Object sub = claims.get("sub");
        if (!(sub instanceof String subject) || subject.isBlank()) {
            return Optional.of(new Refusal(Reason.NO_SUBJECT, "no subject (sub " + shown(sub) + ")"));
        }
        return Optional.empty();
    }

    /** A claim's value as a log line may show it: quoted, cut short, control characters dropped. */
    private static String shown(Object value) {
        if (value == null) {
            return "missing";
        }
        String text = value.toString().replaceAll("\\p{Cntrl}", "");
        return '"' + (text.length() > 40 ? text.substring(0, 40) + "…" : text) + '"';
    }
}
