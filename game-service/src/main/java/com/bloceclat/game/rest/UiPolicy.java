package com.bloceclat.game.rest;

import java.net.URI;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import com.bloceclat.game.config.GameConfig;

import io.quarkus.vertx.http.runtime.filters.Filters;

/**
 * The web UI's pages (everything but {@code /api} and {@code /q}: Swagger UI has inline scripts) go out with a
 * Content-Security-Policy: no script but the bundle's own files (no inline script, no {@code eval}: an injected one
 * would not run, and it could read the tokens the page keeps), never framed (no clickjacking of an admin's buttons),
 * connections only to this origin (the game's API and socket) and to the three origins {@code /config.json} names
 * (solver-service, leaderboard-service, Keycloak), and frames, styles, fonts, media and workers from this origin only,
 * so that a script that ran anyway could not send a token elsewhere by those ways (a navigation, a window it opens
 * and WebRTC no policy bounds: docs/security.md).
 * Built from {@link GameConfig.Ui} at start: each deployment's addresses, reduced to their origins (a path in a URL
 * would otherwise match that path alone in a policy).
 */
@ApplicationScoped
public class UiPolicy {

    private static final Logger LOG = Logger.getLogger(UiPolicy.class);

    /** Every path but {@code /api} and {@code /q} and below. */
    static final Pattern PAGES = Pattern.compile("^/(?!(api|q)(/|$)).*");

    void register(@Observes Filters filters, GameConfig.Ui ui) {
        String policy = contentSecurityPolicy(ui);
        filters.register(rc -> {
            if (PAGES.matcher(rc.normalizedPath()).matches()) {
                rc.response().putHeader("Content-Security-Policy", policy)
                        .putHeader("X-Frame-Options", "DENY")
                        .putHeader("X-Content-Type-Options", "nosniff");
            }
            rc.next();
        }, 10);
    }

    static String contentSecurityPolicy(GameConfig.Ui ui) {
        Set<String> connect = new LinkedHashSet<>();
        connect.add("'self'");
        for (String url : new String[] {ui.solverUrl(), ui.leaderboardUrl(), ui.keycloakUrl()}) {
            Optional<String> origin = origin(url);
            origin.ifPresent(connect::add);
            if (origin.isEmpty() && url.contains("//")) {
                // given to the browser by /config.json, but left out of the policy: the browser would refuse every call
                LOG.warnf("bloc.ui address %s has no origin a Content-Security-Policy can name (an http(s) URL with a "
                        + "host name): the web UI's calls to it will be refused", url);
            }
        }
        // default-src: frames, styles, fonts, media, the manifest and workers from this origin only, so a script that
        // ran anyway cannot carry a token out in the address of an iframe, a stylesheet or a font it adds
        return "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
                + "form-action 'self'; "
                + "img-src 'self' data:; connect-src " + String.join(" ", connect);
    }

    /**
     * {@code scheme://host[:port]} of an absolute http(s) URL with a host name or an IPv4 address; empty for anything
     * else (a relative one is this origin; an IPv6 literal cannot be named in a policy).
     */
    static Optional<String> origin(String url) {
        try {
            URI u = URI.create(url.strip());
            String scheme = u.getScheme();
            boolean http = "http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme);
            if (!http || u.getHost() == null || u.getHost().startsWith("[")) {
                return Optional.empty(); // an IPv6 literal: a policy's host syntax has none (browsers drop the source)
            }
            String port = u.getPort() < 0 ? "" : ":" + u.getPort();
            return Optional.of(scheme.toLowerCase(Locale.ROOT) + "://" + u.getHost().toLowerCase(Locale.ROOT) + port);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
