package com.bloceclat.game.service;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import jakarta.enterprise.context.ApplicationScoped;

import com.bloceclat.common.security.Caller;
import com.bloceclat.game.Player;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * The logged-in players this service has seen ({@code player}: first and last seen, the name their token gave). A
 * player's row is written on first sight here and then at most once a {@value #REFRESH_MINUTES}-minute window per
 * replica, or sooner when their name changes: written on every call, it was a transaction and a commit of its own
 * before each logged-in request (a move too), and an UPSERT per request for anyone who sent requests that were
 * refused anyway (a {@code GET} of a game that does not exist). So {@code last_seen_at} is right to about that window.
 */
@ApplicationScoped
public class PlayerService {

    static final int REFRESH_MINUTES = 1;

    /** Subject → the name last written for it on this replica, for {@value #REFRESH_MINUTES} minute(s). */
    private final Cache<String, String> written = Caffeine.newBuilder()
            .expireAfterWrite(Duration.ofMinutes(REFRESH_MINUTES)).maximumSize(100_000).build();

    /** Records that the caller was here now, unless this replica recorded them, by that name, lately. */
    public void seen(Caller caller) {
        String last = written.getIfPresent(caller.subject());
        if (last != null && last.equals(caller.name())) {
            return;
        }
        // in the caller's transaction if one is open: a new one would take a second pool connection while the
        // caller's holds one, and requests doing so at once could each wait for the other's
        QuarkusTransaction.joiningExisting().run(() -> Player.seen(caller.subject(), caller.name(),
                OffsetDateTime.now(ZoneOffset.UTC)));
        if (caller.name() != null) {
            written.put(caller.subject(), caller.name());
        }
    }
}
